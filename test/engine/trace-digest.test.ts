// The trace digest alone, on made-up events: what a huge trace costs is capped, and only the main frame's renderer
// main thread counts for long tasks.
import { describe, expect, it } from 'vitest';
import { TraceDigest, type TraceEvent } from '../../shared/engine/trace-digest.js';

const MAIN = 'MAINFRAME';
const thread = (pid: number, tid: number): TraceEvent => ({
  name: 'thread_name',
  ph: 'M',
  ts: 0,
  pid,
  tid,
  args: { name: 'CrRendererMain' },
});
const started: TraceEvent = {
  name: 'TracingStartedInBrowser',
  ph: 'I',
  ts: 0,
  pid: 1,
  tid: 1,
  args: { data: { frames: [{ frame: MAIN, processId: 10, url: 'http://127.0.0.1/' }] } },
};
const task = (pid: number, ts: number, ms: number): TraceEvent => ({
  name: 'RunTask',
  ph: 'X',
  ts,
  dur: ms * 1000,
  pid,
  tid: pid,
});

describe('trace digest', () => {
  it('keeps a bounded digest of a huge trace and says how much it left out', () => {
    const digest = new TraceDigest(MAIN);
    digest.add([started, thread(10, 10)]);
    for (let i = 0; i < 20_000; i++) {
      digest.add([
        task(10, i * 100_000, 60 + (i % 7)),
        {
          name: 'FunctionCall',
          ph: 'X',
          ts: i * 100_000 + 10,
          dur: 20_000,
          pid: 10,
          tid: 10,
          args: { data: { url: `http://127.0.0.1/${i}.js`, frame: MAIN } },
        },
        {
          name: 'LayoutShift',
          ph: 'I',
          ts: i * 100_000,
          pid: 10,
          tid: 10,
          args: { frame: MAIN, data: { score: 0.001, impacted_nodes: [{ node_id: i }] } },
        },
      ]);
    }
    const findings = digest.findings();
    expect(findings.longTasks.count).toBe(2_000);
    expect(findings.longTasks.longest).toHaveLength(3);
    expect(findings.longTasks.longest[0]!.ms).toBe(66);
    expect(findings.shifts.length).toBeLessThanOrEqual(500);
    expect(findings.dropped).toBeGreaterThan(19_000);
    expect(JSON.stringify(findings).length).toBeLessThan(100_000);
  });

  it("counts long tasks of the main frame's renderer main thread only, for the tab's own frames", () => {
    const digest = new TraceDigest(MAIN);
    const layout = (ts: number, frame: string): TraceEvent => ({
      name: 'Layout',
      ph: 'X',
      ts,
      dur: 40_000,
      pid: 10,
      tid: 10,
      args: { beginData: { frame } },
    });
    digest.add([
      started,
      thread(10, 10),
      thread(20, 20),
      task(10, 0, 80),
      layout(10, MAIN),
      // Another tab of the same site in the same renderer: its task is not this tab's.
      task(10, 1_000_000, 120),
      layout(1_000_010, 'OTHERTAB'),
      task(20, 0, 300),
      { ...task(10, 0, 500), tid: 11 },
    ]);
    const { longTasks } = digest.findings((frameId) => frameId === MAIN);
    expect(longTasks).toMatchObject({ count: 1, totalMs: 80, longest: [{ ms: 80, activity: 'layout' }] });
  });
});
