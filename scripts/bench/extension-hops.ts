// Where an extension call's time goes, hop by hop: the core's bridge in this process, the real extension in Chromium,
// and in its worker the command's frame, every chrome.* call and chrome.debugger command, and the answer, on the
// worker's own clock (read back through its CDP target). `npx tsx scripts/bench/extension-hops.ts` prints it alone.
import { performance } from 'node:perf_hooks';
import { startLinkedExtension, type LinkedExtension } from '../../test/extension/support/linked-extension.js';
import type { Operation } from '../../shared/protocol/operations.js';
import { percentile, ROUNDS, Table } from './measure.js';

// Marks what the worker does, wrapping the globals it calls through (it looks each one up on every call); installed
// again if the worker was stopped since. The worker's clock is coarse (0.1 ms): a hop reads as a multiple of it.
const INSTALL = `(() => {
  if (globalThis.__hops) return true;
  const log = (globalThis.__hops = []);
  const parse = JSON.parse;
  JSON.parse = function (text, reviver) {
    if (typeof text === 'string' && text.startsWith('{"type":"command"')) log.push({ k: 'recv', t: performance.now() });
    return parse.call(this, text, reviver);
  };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === 'string' && data.startsWith('{"type":"result"')) log.push({ k: 'send', t: performance.now() });
    return send.call(this, data);
  };
  const wrap = (owner, path) => {
    for (const name of Object.keys(owner)) {
      const fn = owner[name];
      if (typeof fn !== 'function' || name.startsWith('on') || /^[A-Z]/.test(name)) continue;
      owner[name] = function (...args) {
        const entry = { k: name === 'sendCommand' ? 'cdp' : path + '.' + name, t: performance.now(), end: -1 };
        log.push(entry);
        const reply = fn.apply(this, args);
        const done = () => void (entry.end = performance.now());
        if (reply && typeof reply.then === 'function') reply.then(done, done);
        else done();
        return reply;
      };
    }
  };
  for (const api of ['tabs', 'windows', 'debugger', 'declarativeNetRequest', 'scripting', 'tabGroups', 'webNavigation'])
    if (chrome[api]) wrap(chrome[api], 'chrome.' + api);
  wrap(chrome.storage.session, 'chrome.storage.session');
  wrap(chrome.storage.local, 'chrome.storage.local');
  return true;
})()`;

interface Mark {
  k: string;
  t: number;
  end: number;
}

const HOPS = [
  'core: call → answer',
  '  link both ways (core − worker)',
  '  worker: frame → answer sent',
  '    frame → first CDP command',
  '    first CDP command → answer sent',
  '    CDP commands (count)',
  '    other chrome.* calls (count)',
] as const;

/** Per hop, the samples of `op` over `rounds` calls, and which other chrome.* calls it made, per call. */
async function hops(
  linked: LinkedExtension,
  op: Operation,
  args: Record<string, unknown>,
  rounds: number,
): Promise<{ samples: Map<string, number[]>; others: Map<string, number> }> {
  const run = () => linked.run(op, args);
  for (let i = 0; i < 5; i++) await run();
  await linked.browser.evaluate(INSTALL);
  const samples = new Map<string, number[]>(HOPS.map((hop) => [hop, []]));
  const add = (hop: (typeof HOPS)[number], value: number) => samples.get(hop)!.push(value);
  const others = new Map<string, number>();
  for (let i = 0; i < rounds; i++) {
    await linked.browser.evaluate('void globalThis.__hops.splice(0)');
    const start = performance.now();
    await run();
    const total = performance.now() - start;
    const marks = await linked.browser.evaluate<Mark[]>('globalThis.__hops.splice(0)');
    const received = marks.find((mark) => mark.k === 'recv')!.t;
    const sent = marks.find((mark) => mark.k === 'send')!.t;
    const cdp = marks.filter((mark) => mark.k === 'cdp');
    const other = marks.filter((mark) => mark.k.startsWith('chrome.'));
    add('core: call → answer', total);
    add('  link both ways (core − worker)', total - (sent - received));
    add('  worker: frame → answer sent', sent - received);
    add('    frame → first CDP command', (cdp[0]?.t ?? sent) - received);
    add('    first CDP command → answer sent', sent - (cdp[0]?.t ?? sent));
    add('    CDP commands (count)', cdp.length);
    add('    other chrome.* calls (count)', other.length);
    for (const mark of other) others.set(mark.k, (others.get(mark.k) ?? 0) + 1 / rounds);
  }
  return { samples, others };
}

const CALLS: [string, Operation, Record<string, unknown>][] = [
  ['eval', 'eval', { expression: 'document.title' }],
  ['click', 'click', { selector: '#terms' }],
  ['snapshot', 'snapshot', {}],
];

/** The hop table of eval, click and snapshot on the sign-up page, through the core's bridge and the real extension. */
export async function extensionHops(rounds = ROUNDS): Promise<Table> {
  const linked = await startLinkedExtension();
  try {
    const opened = await linked.run('tab_new', { url: linked.fixtures.url('bench-signup.html') });
    const tab = String(opened.data?.['tab']);
    const table = new Table(['hop (p50 / p95 ms)', ...CALLS.map(([name]) => name)]);
    const results = [];
    for (const [, op, args] of CALLS) results.push(await hops(linked, op, { tab, ...args }, rounds));
    const cell = (values: number[]) => `${percentile(values, 50).toFixed(2)} / ${percentile(values, 95).toFixed(2)}`;
    for (const hop of HOPS) table.add([hop, ...results.map(({ samples }) => cell(samples.get(hop)!))]);
    const named = (others: Map<string, number>) =>
      [...others].map(([name, perCall]) => `${name} ×${perCall.toFixed(2)}`).join(', ') || 'none';
    table.add(['    which', ...results.map(({ others }) => named(others))]);
    return table;
  } finally {
    await linked.close();
  }
}

if (process.argv[1]?.endsWith('extension-hops.ts')) {
  const rounds = Number(process.env['BENCH_ROUNDS'] ?? 100);
  console.log(`extension calls hop by hop (${rounds} rounds; the worker's clock inside, the core's outside)\n`);
  (await extensionHops(rounds)).print();
}
