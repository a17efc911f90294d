// Where a call's time goes inside the page, for the calls whose steps grow with the page: the renderer's timeline
// (style, layout, hit tests, script: self time per event kind) and V8's CPU profile (self time per function), while the
// fallback's engine runs the call in process on a page of BENCH_PROFILE elements. Opt-in: `BENCH_PROFILE=50000`.
import type { CdpConnection } from '../../electron/core/fallback/cdp-connection.js';
import type { Operation } from '../../shared/protocol/operations.js';
import type { FixtureServer } from '../../test/support/fixture-server.js';
import { inProcessEngine } from './round-trips.js';
import { sizedPage } from './sweep.js';

const ROUNDS = 5;
const TOP = 6;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  args?: { name?: string };
}

interface CallFrame {
  functionName: string;
  scriptId: string;
  lineNumber: number;
  columnNumber: number;
}

interface Profile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
}

const CALLS: [string, Operation, Record<string, unknown>][] = [
  ['eval (1st on page)', 'eval', { expression: 'document.title' }],
  ['click', 'click', { selector: '#go' }],
  ['type', 'type', { selector: '#name', text: 'Ada Lovelace', clear: true }],
  ['snapshot', 'snapshot', {}],
  ['get_text', 'get_text', {}],
];

/** Prints, per call, the renderer's busiest event kinds and functions (self ms per call) on the sized page. */
export async function pageProfile(server: FixtureServer, elements: number): Promise<void> {
  const engine = await inProcessEngine();
  try {
    const url = sizedPage(server, elements);
    for (const [name, op, args] of CALLS) {
      // Each call on a page of its own, once first-on-page work is behind it (the eval row is that work).
      await engine.run('navigate', { url });
      if (!name.includes('1st')) await engine.run(op, args);
      const session = await attach(engine.connection, url);
      const rounds = name.includes('1st') ? 1 : ROUNDS;
      const { timeline, profile } = await recorded(engine.connection, session, async () => {
        for (let round = 0; round < rounds; round++) await engine.run(op, args);
      });
      await engine.connection.send('Target.detachFromTarget', { sessionId: session });
      const per = (ms: number) => (ms / rounds).toFixed(1);
      console.log(`${name} on ${elements.toLocaleString('en-US')} elements (self ms per call):`);
      console.log(`  rendering: ${top(timeline, per)}`);
      console.log(`  script:    ${top(profile, per)}`);
    }
  } finally {
    await engine.close();
  }
}

/** A second session of ours on the tab showing `url`, beside the engine's own. */
async function attach(connection: CdpConnection, url: string): Promise<string> {
  const { targetInfos } = await connection.send<{ targetInfos: { targetId: string; url: string; type: string }[] }>(
    'Target.getTargets',
  );
  const target = targetInfos.find((info) => info.type === 'page' && info.url === url);
  if (!target) throw new Error(`no tab shows ${url}`);
  const { sessionId } = await connection.send<{ sessionId: string }>('Target.attachToTarget', {
    targetId: target.targetId,
    flatten: true,
  });
  return sessionId;
}

/** Runs `work` under the timeline trace and the CPU profiler; returns self ms by event kind and by function. */
async function recorded(
  connection: CdpConnection,
  session: string,
  work: () => Promise<void>,
): Promise<{ timeline: Map<string, number>; profile: Map<string, number> }> {
  const events: TraceEvent[] = [];
  const off = connection.on((event) => {
    if (event.method === 'Tracing.dataCollected' && event.sessionId === session)
      events.push(...(event.params['value'] as TraceEvent[]));
  });
  const complete = new Promise<void>((resolve) => {
    const stop = connection.on((event) => {
      if (event.method === 'Tracing.tracingComplete' && event.sessionId === session) resolve(stop());
    });
  });
  await connection.send('Profiler.enable', {}, session);
  await connection.send('Profiler.setSamplingInterval', { interval: 200 }, session);
  await connection.send('Tracing.start', { traceConfig: { includedCategories: ['devtools.timeline'] } }, session);
  await connection.send('Profiler.start', {}, session);
  await work();
  const { profile } = await connection.send<{ profile: Profile }>('Profiler.stop', {}, session);
  await connection.send('Tracing.end', {}, session);
  await complete;
  off();
  return { timeline: selfTimes(events), profile: await functionTimes(profile, sourceAt(connection, session)) };
}

/**
 * Self time (ms) per rendering event kind (style, layout, paint, hit test, event dispatch) on the renderer's main
 * thread: an event's duration less its nested events'. Script time is the CPU profile's; V8's and the task's own
 * events are left out.
 */
function selfTimes(events: TraceEvent[]): Map<string, number> {
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')?.tid;
  const spans = events
    .filter((event) => event.tid === main && event.ph === 'X' && event.dur !== undefined)
    .filter(
      (event) => !event.name.startsWith('V8.') && !['RunTask', 'RunMicrotasks', 'FunctionCall'].includes(event.name),
    )
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const open: TraceEvent[] = [];
  for (const span of spans) {
    while (open.length && open.at(-1)!.ts + open.at(-1)!.dur! <= span.ts) open.pop();
    const parent = open.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - span.dur! / 1000);
    self.set(span.name, (self.get(span.name) ?? 0) + span.dur! / 1000);
    open.push(span);
  }
  return self;
}

/** Self time (ms) per function from V8's samples: each sample's interval goes to the function it landed in. */
async function functionTimes(
  profile: Profile,
  source: (frame: CallFrame) => Promise<string>,
): Promise<Map<string, number>> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const self = new Map<CallFrame, number>();
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)!;
    self.set(frame, (self.get(frame) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000);
  });
  const named = new Map<string, number>();
  for (const [frame, ms] of self) {
    // (program), (garbage collector), (idle) are V8's own; the engine's page scripts are mostly arrow functions,
    // named here by the start of their source.
    const name = frame.functionName || (frame.scriptId === '0' ? '(anonymous)' : `«${await source(frame)}»`);
    named.set(name, (named.get(name) ?? 0) + ms);
  }
  return named;
}

/** The first words of the source at a frame's position, from the page's debugger (scripts kept per id). */
function sourceAt(connection: CdpConnection, session: string): (frame: CallFrame) => Promise<string> {
  const sources = new Map<string, Promise<string[]>>();
  let enabled: Promise<unknown> | undefined;
  return async ({ scriptId, lineNumber, columnNumber }) => {
    enabled ??= connection.send('Debugger.enable', {}, session);
    await enabled;
    if (!sources.has(scriptId))
      sources.set(
        scriptId,
        connection
          .send<{ scriptSource: string }>('Debugger.getScriptSource', { scriptId }, session)
          .then(({ scriptSource }) => scriptSource.split('\n'))
          .catch(() => []),
      );
    const line = (await sources.get(scriptId)!)[lineNumber] ?? '';
    return line.slice(columnNumber, columnNumber + 48).replace(/\s+/g, ' ');
  };
}

function top(times: Map<string, number>, per: (ms: number) => string): string {
  return [...times]
    .filter(([name, ms]) => name !== '(idle)' && ms >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([name, ms]) => `${name} ${per(ms)}`)
    .join(', ');
}
