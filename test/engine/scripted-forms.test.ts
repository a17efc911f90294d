// A form in a document an eval reached, submitted by the agent's own act right after the eval: the act's window judges
// it, and the script trail (which holds a form the script submits later, egress-late.test.ts) lets it go.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import { EVAL_ACTIVATION_MS } from '../../shared/engine/scripted-documents.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import type { Operation, OperationResult } from '../../shared/protocol/operations.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { testServerHosts } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';

const suite = useEngineSuite();
let watched: WatchedSite;
let executor: EngineExecutor;

beforeAll(async () => {
  watched = await startWatchedSite();
  const policy = policyFromFlags({ allow: [new URL(watched.origin).host], trust: testServerHosts() });
  executor = createEngineExecutor(suite.browser.host, { tag: 'sf', policy: () => policy });
});
afterAll(async () => {
  executor?.dispose();
  await watched?.close();
});

const run = (op: Operation, args: Record<string, unknown> = {}): Promise<OperationResult> =>
  executor.run(op, args, ctx);

it('lets the form an act submits go, within the eval’s activation', async () => {
  await run('tab_new', { url: suite.server.url('egress-late.html') });
  await run('eval', {
    expression: `const form = document.createElement('form'); form.action = '${watched.origin}/act-form';
      form.append(Object.assign(document.createElement('button'), { id: 'send', textContent: 'Send' }));
      document.body.append(form); 0`,
  });
  const evalled = Date.now();
  await run('click', { selector: '#send' });
  // The click came while the eval's own activation still counted, where the trail holds a submit of the script's.
  expect(Date.now() - evalled).toBeLessThan(EVAL_ACTIVATION_MS);
  const deadline = Date.now() + 20_000;
  while (!watched.requests.some((path) => path.startsWith('/act-form'))) {
    if (Date.now() > deadline) throw new Error('the form the act submitted never reached its site');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
