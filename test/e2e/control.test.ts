// The person's side end to end: the built `chrome-mcp` on stdio driving the fallback browser, and the person answering
// through the loopback control API it exposes — questions, live policy edits, stop and interjections — plus a bad
// policy file stopping the start with the place to fix.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readControlFile } from '../../electron/core/control/control-file.js';
import { createControlClient, loopbackOrigin, type ControlClient } from '../../shared/control/client.js';
import { CdpConnection } from '../../electron/core/fallback/cdp-connection.js';
import { personAt } from '../support/person.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { textOf } from '../support/tool-result.js';
import { testServerFlags } from '../support/test-policy.js';
import { ALL_CAPS } from '../support/all-caps.js';
import { removeDir } from '../support/remove-dir.js';

const CLI = fileURLToPath(new URL('../../dist/electron/helper/cli.js', import.meta.url));
const chosenBrowser = process.env['CHROME_MCP_CHROMIUM'];
const childEnv: Record<string, string> = chosenBrowser ? { CHROME_MCP_CHROMIUM: chosenBrowser } : {};

let fixtures: FixtureServer;
let client: Client;
let control: ControlClient;
let controlPort: number;
let dataDir: string;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  dataDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-control-e2e-'));
  // 127.0.0.1 may be acted on for this run; localhost (the fixture server's second site) has no rule: ask. The
  // debugging port is the person's keyboard for the Esc test: the fallback opens none of its own.
  const args = [
    CLI,
    '--headless',
    '--browser',
    'fallback',
    '--data-dir',
    dataDir,
    ...testServerFlags('act', ['127.0.0.1']),
    '--browser-arg=--remote-debugging-port=0',
    // batch is opt-in
    ...ALL_CAPS,
  ];
  client = new Client({ name: 'control-e2e', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, env: childEnv, stderr: 'ignore' }));
  const file = readControlFile(dataDir);
  if (!file) throw new Error('chrome-mcp wrote no control.json');
  controlPort = file.port;
  control = createControlClient({ origin: loopbackOrigin(file.port), token: file.token });
});

afterAll(async () => {
  await client?.close();
  await fixtures?.close();
  removeDir(dataDir);
});

/** The browser's debugging WebSocket, from the file Chromium writes once its port listens (it is up: it served a call). */
function devToolsEndpoint(profileDir: string): string {
  const [port, path] = readFileSync(join(profileDir, 'DevToolsActivePort'), 'utf8').split('\n');
  return `ws://127.0.0.1:${port!.trim()}${path!.trim()}`;
}

async function call(name: string, args: Record<string, unknown> = {}): Promise<string> {
  return textOf(await client.callTool({ name, arguments: args }));
}

describe('the person answers through the control API', () => {
  it("allows an undecided site once, after which the agent's retry loads it", async () => {
    expect(await call('tab_new', { url: fixtures.url('nav-basic.html') })).toContain('Nav basic');
    const asked = await call('navigate', { url: fixtures.crossOrigin + '/nav-second.html' });
    expect(asked).toMatch(/^DOMAIN_CONFIRMATION_REQUIRED: .*The person is asked \(question (q\d+)\)/);
    const { questions } = await control.call('questions.list');
    expect(questions).toMatchObject([{ kind: 'site', site: fixtures.crossOrigin, need: 'read', tool: 'navigate' }]);
    await control.call('questions.answer', { id: questions[0]!.id, answer: 'once' });
    expect(await call('navigate', { url: fixtures.crossOrigin + '/nav-second.html' })).toContain('Nav second');
  });

  it('blocks a site live from the policy editor: the next call is refused without a restart', async () => {
    await call('navigate', { url: fixtures.url('nav-basic.html') });
    const before = await control.call('policy.get');
    // The run's grant names the port, so the block does too: a narrower grant would outrank a bare-address block.
    const site = new URL(fixtures.origin).host;
    await control.call('policy.set', {
      rules: [{ site, level: 'blocked' }],
      default: before.default,
      downloads: before.downloads,
    });
    expect(await call('snapshot')).toMatch(/^POLICY_DENIED: The person's policy blocks 127\.0\.0\.1/);
    await control.call('policy.set', { rules: [], default: before.default, downloads: before.downloads });
    expect(await call('snapshot')).toContain('Nav basic');
  });

  it('never lets the agent open the control panel itself, whatever the grants say', async () => {
    const refused = await call('navigate', { url: `http://127.0.0.1:${controlPort}/` });
    expect(refused).toContain("chrome-mcp's own page");
  });

  it('stops the agent with a message until resumed, and passes interjections on', async () => {
    await control.call('stop', { message: 'Let me log in first' });
    expect(await call('snapshot')).toMatch(/^STOPPED: Stopped by the person: Let me log in first/);
    await control.call('resume');
    await control.call('interject', { message: 'The order number is in the footer' });
    expect(await call('snapshot')).toMatch(
      /^\[chrome-mcp [0-9a-f]{12}\] The person says: The order number is in the footer\nPage "Nav basic"/,
    );
    const { entries } = await control.call('audit.read', { tool: 'snapshot' });
    expect(entries.map((entry) => entry.decision)).toEqual(expect.arrayContaining(['denied', 'stopped', 'allowed']));
  });
});

describe('Esc in the driven tab', () => {
  it('stops a running batch within a step, and every later call, until the person resumes', async () => {
    await call('navigate', { url: fixtures.url('stop-counter.html') });
    // The person's own keyboard: a separate debugging session on the same tab of the browser chrome-mcp launched.
    const connection = await CdpConnection.connect(devToolsEndpoint(join(dataDir, 'fallback-profile')));
    try {
      const { targetInfos } = await connection.send<{ targetInfos: { targetId: string; url: string }[] }>(
        'Target.getTargets',
      );
      const person = await personAt(
        connection,
        targetInfos.find((target) => target.url.includes('stop-counter'))!.targetId,
      );
      const steps = Array.from({ length: 20 }, () => [
        { tool: 'click', args: { selector: '#add' } },
        { tool: 'wait_for', args: { selector: '#never', timeout: 500 } },
      ]).flat();
      const batch = call('batch', { steps });
      await expect
        .poll(() => person.page<number>('clicks'), { timeout: 10_000, interval: 20 })
        .toBeGreaterThanOrEqual(2);
      const atEsc = await person.page<number>('clicks');
      await person.pressEscape();
      expect(await batch).toMatch(/^STOPPED: /);
      expect(await person.page<number>('clicks')).toBeLessThanOrEqual(atEsc + 1);
      expect(await call('snapshot')).toMatch(/^STOPPED: Stopped by the person: Esc pressed in tab /);
      expect(await call('status')).toContain('stopped by the person: Esc pressed');
      await control.call('resume');
      expect(await call('snapshot')).toContain('Counter');
    } finally {
      connection.close();
    }
  });
});

describe('a policy file with a mistake', () => {
  it('stops the start, naming the file and the place to fix', () => {
    const file = join(dataDir, 'bad-policy.json');
    writeFileSync(file, '{ "version": 1, "rules": [ { "site": "https://bank.example/login", "level": "act" } ] }');
    const run = spawnSync(process.execPath, [CLI, '--headless', '--data-dir', dataDir, '--policy', file], {
      input: '',
      encoding: 'utf8',
      env: { ...process.env, ...childEnv },
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      `${file}: rules[0].site: "https://bank.example/login": a rule names a site, not a page`,
    );
  });
});
