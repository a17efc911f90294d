// performance: start a trace of the tab (after it, a reload through navigate's own path, so the load is timed), and
// at stop answer what a developer acts on, in a few lines: load timings, LCP, CLS and what shifted, long tasks, the
// largest and slowest requests. Frames, scripts and requests of sites the policy keeps from the model go unnamed.
import { ToolError } from '../../protocol/errors.js';
import type { AgentContext, OperationContext, OperationResult } from '../../protocol/operations.js';
import type { PerformanceArgs } from '../../tools/args.js';
import { agentOf } from '../agent-currents.js';
import { clsFinding, type ClsFinding } from '../layout-shifts.js';
import type { NetworkRecord } from '../network-log.js';
import type { PageContext } from '../page-context.js';
import type { TraceStopped } from '../page-trace.js';
import { nodeLabel } from '../node-label.js';
import type { Findings, LongTask } from '../trace-digest.js';
import { bytes } from './network.js';
import { navigate } from './navigate.js';

const URL_CHARS = 120;
const TOP = 3;

export async function performance(
  page: PageContext,
  args: PerformanceArgs,
  ctx: OperationContext,
): Promise<OperationResult> {
  return args.action === 'start' ? start(page, args.reload === true, ctx, agentOf(ctx)) : stop(page, ctx);
}

async function start(
  page: PageContext,
  reload: boolean,
  ctx: OperationContext,
  agent: AgentContext,
): Promise<OperationResult> {
  const owner = page.trace.owner;
  if (owner !== undefined) {
    if (agent.live.includes(owner) || owner === agent.id)
      throw new ToolError('TRACE_RUNNING', `A performance trace already runs on this tab.`, {
        next: 'Call `performance` with action stop for its findings, then start again.',
      });
    // Its agent's session ended without stopping it: nobody will read it.
    await page.trace.discard();
  }
  // The trace's requests are read from the network log: it must be capturing before the first of them.
  await page.network.start();
  const main = await page.frames.mainFrameUrl();
  await page.trace.start(agent.id, main.id, page.network.last());
  const then = 'call `performance` with action stop for the findings';
  if (!reload) return { text: `performance: tracing; ${then} (reload: true times the load)`, data: { tracing: true } };
  try {
    const reloaded = await navigate(page, { action: 'reload' }, ctx);
    return { text: `performance: tracing; reloaded ${reloaded.text}; ${then}`, data: { tracing: true } };
  } catch (error) {
    // A reload refused or stuck leaves nothing worth tracing running.
    await page.trace.discard();
    throw error;
  }
}

async function stop(page: PageContext, ctx: OperationContext): Promise<OperationResult> {
  ctx.progress('collecting the trace');
  const stopped = await page.trace.stop();
  if (!stopped)
    throw new ToolError('TRACE_NOT_RUNNING', 'No performance trace runs on this tab.', {
      next: 'Call `performance` with action start (reload: true to time the load), use the page, then stop.',
    });
  const frames = await page.frames.list();
  const frameOf = (frameId: string | undefined) => frames.find((frame) => frame.frameId === frameId);
  // Only the tab's own frames count: a renderer may run other tabs of the same site too.
  const findings = stopped.digest.findings((frameId) => frameOf(frameId) !== undefined);
  const readable = (frameId: string | undefined): boolean => {
    const frame = frameOf(frameId);
    return frame !== undefined && page.frames.allows(frame, 'read');
  };
  const shifts = findings.shifts.filter((shift) => readable(shift.frameId));
  const cls = await clsFinding(page, shifts, frameOf);
  const lines = [
    header(stopped, findings),
    loadLine(page, findings),
    await lcpLine(page, findings),
    clsLine(cls, findings.shifts.length - shifts.length),
    // A script the trace did not place ran in the main frame's process, on its main thread.
    longTaskLine(findings, (frameId) => readable(frameId ?? frames[0]?.frameId)),
    ...requestLines(page, stopped.firstRequest),
  ];
  return {
    text: lines.join('\n'),
    data: {
      tracing: false,
      ...(findings.load?.ttfbMs !== undefined ? { ttfbMs: findings.load.ttfbMs } : {}),
      ...(findings.load?.domContentLoadedMs !== undefined
        ? { domContentLoadedMs: findings.load.domContentLoadedMs }
        : {}),
      ...(findings.load?.loadMs !== undefined ? { loadMs: findings.load.loadMs } : {}),
      ...(findings.lcp ? { lcpMs: findings.lcp.ms } : {}),
      cls: round(cls.score),
      longTasks: findings.longTasks.count,
    },
  };
}

function header(stopped: TraceStopped, findings: Findings): string {
  return [
    `performance: ${stopped.seconds.toFixed(1)} s traced`,
    stopped.full ? '; the trace buffer filled, so later events were not recorded' : '',
    stopped.cut ? '; the browser did not hand the whole trace over in time' : '',
    findings.dropped > 0 ? `; ${findings.dropped} events past the digest's caps left out` : '',
  ].join('');
}

function loadLine(page: PageContext, { load }: Findings): string {
  if (!load) return 'load: no page load in the trace (start with reload: true to time one)';
  const parts = [
    load.ttfbMs !== undefined ? `TTFB ${load.ttfbMs} ms` : '',
    load.domContentLoadedMs !== undefined ? `DOMContentLoaded ${load.domContentLoadedMs} ms` : '',
    load.loadMs !== undefined ? `load ${load.loadMs} ms` : 'load event not reached',
  ].filter(Boolean);
  return `load of ${shown(page, load.url)}: ${parts.join(', ')}`;
}

async function lcpLine(page: PageContext, { lcp }: Findings): Promise<string> {
  if (!lcp) return 'LCP: none in the trace (it is timed from a page load)';
  const element = lcp.nodeId === undefined ? undefined : await nodeLabel(page, lcp.nodeId, undefined);
  const what = element ?? lcp.nodeName?.toLowerCase() ?? 'an element';
  const image = lcp.imageUrl ? ` ${shown(page, lcp.imageUrl)}` : '';
  return `LCP: ${lcp.ms} ms, ${lcp.type ?? 'element'} ${what}${image}`;
}

function clsLine(cls: ClsFinding, hidden: number): string {
  const left = hidden > 0 ? `; ${hidden} in frames of sites the policy keeps from you left out` : '';
  if (cls.shifts === 0) return `CLS: 0 (no layout shift)${left}`;
  const moved = cls.moved.map(({ label, score }) => `${label} ${round(score)}`).join(', ');
  const count = `${cls.shifts} shift${cls.shifts === 1 ? '' : 's'}`;
  return `CLS: ${round(cls.score)} from ${count}${moved ? `, moved: ${moved}` : ''}${left}`;
}

function longTaskLine({ longTasks }: Findings, readable: (frameId: string | undefined) => boolean): string {
  if (longTasks.count === 0) return 'long tasks: none (none over 50 ms on the main thread)';
  const each = (task: LongTask) => {
    const script = task.script;
    if (script && !readable(script.frameId)) return `${task.ms} ms (a script of a site the policy keeps from you)`;
    if (script) return `${task.ms} ms ${script.functionName ? `${script.functionName} in ` : ''}${clip(script.url)}`;
    return `${task.ms} ms${task.activity ? ` ${task.activity}` : ''}`;
  };
  return `long tasks: ${longTasks.count}, ${longTasks.totalMs} ms in all; longest ${longTasks.longest.map(each).join('; ')}`;
}

/** The trace's requests from the network log, judged where the document that made each stands. */
function requestLines(page: PageContext, after: number): string[] {
  const readable = page.gate.judgeEach('read');
  let hidden = 0;
  const records = page.network.list().filter((record) => {
    if (record.id <= after) return false;
    if (readable(record.place)) return true;
    hidden++;
    return false;
  });
  const row = (record: NetworkRecord) =>
    [
      record.size !== undefined ? bytes(record.size) : '',
      record.ms !== undefined ? `${record.ms}ms` : '',
      clip(record.url),
    ]
      .filter(Boolean)
      .join(' ');
  const largest = records.filter((record) => record.size !== undefined).sort((a, b) => b.size! - a.size!);
  const slowest = records.filter((record) => record.ms !== undefined).sort((a, b) => b.ms! - a.ms!);
  return [
    `requests: ${records.length}${hidden ? ` (${hidden} made by sites the policy keeps from you left out)` : ''}`,
    ...(largest.length ? [`largest: ${largest.slice(0, TOP).map(row).join('; ')}`] : []),
    ...(slowest.length ? [`slowest: ${slowest.slice(0, TOP).map(row).join('; ')}`] : []),
  ];
}

function shown(page: PageContext, url: string): string {
  return page.gate.allows({ url }, 'read') ? clip(url) : '(a site the policy keeps from you)';
}

function clip(url: string): string {
  return url.length > URL_CHARS ? `${url.slice(0, URL_CHARS)}…` : url;
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
