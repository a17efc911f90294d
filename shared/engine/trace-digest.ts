// What a developer acts on, folded from a tab's trace events as they stream in: the main frame's load marks, its
// largest paint, its layout shifts and its main thread's long tasks. Every store is capped, so a huge page's trace
// costs a bounded digest, never the raw events.

/** One event of Chrome's trace (the JSON trace event format). */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}

export interface LoadTimings {
  url: string;
  ttfbMs?: number;
  domContentLoadedMs?: number;
  loadMs?: number;
}

export interface LargestPaint {
  ms: number;
  /** Backend node id in the main frame's document. */
  nodeId?: number;
  /** Chrome's own short name for the element ("IMG id='hero'", "P"). */
  nodeName?: string;
  type?: string;
  imageUrl?: string;
}

export interface LayoutShift {
  ts: number;
  score: number;
  frameId: string;
  /** Backend node ids of what moved, as Chrome lists them. */
  nodes: number[];
}

export interface LongTask {
  ts: number;
  ms: number;
  /** The longest script that ran in it, when the trace has one. */
  script?: { url: string; functionName?: string; frameId?: string };
  /** Else the browser's own longest work in it: layout, style, paint, parsing, garbage collection. */
  activity?: string;
  /** The frame its work was for, when the trace says. */
  frameId?: string;
}

export interface Findings {
  load?: LoadTimings;
  lcp?: LargestPaint;
  /** The main frame's and its iframes' shifts with no input just before them, oldest first. */
  shifts: LayoutShift[];
  /** `longest`: the longest few, longest first. */
  longTasks: { count: number; totalMs: number; longest: LongTask[] };
  /** Events past a store's cap, left out of the findings. */
  dropped: number;
}

/** A task this long blocks input enough to matter (the Long Tasks API's bar). */
const LONG_TASK_MS = 50;
/** Work shorter than this cannot be what made a task long. */
const WORK_MS = 10;
const MAX_NAVIGATIONS = 16;
const MAX_MARKS = 64;
const MAX_SHIFTS = 500;
const MAX_WORKS = 500;
const MAX_NODES_PER_SHIFT = 5;
const KEPT_LONG_TASKS = 3;
/** 50 ms each: more than the trace buffer holds before it fills. */
const MAX_TASKS = 2000;
/** The browser's own work a long task may be made of, by trace event name. */
const ACTIVITIES: Record<string, string> = {
  Layout: 'layout',
  UpdateLayoutTree: 'style',
  Paint: 'paint',
  ParseHTML: 'HTML parsing',
  MajorGC: 'garbage collection',
  MinorGC: 'garbage collection',
  'v8.compile': 'script compiling',
};

interface Navigation {
  url: string;
  startTs: number;
  /** When the document's response reached the renderer: marks before it are the previous document's. */
  responseTs?: number;
  /** When its response headers began to arrive, µs on the trace's clock. */
  firstByteTs?: number;
}

interface Paint {
  index: number;
  ts: number;
  nodeId?: number;
  nodeName?: string;
  type?: string;
}

interface Task {
  ts: number;
  ms: number;
  /** pid:tid of its thread. */
  key: string;
}

/** Work inside tasks: a script (url) or the browser's own (activity). */
interface Work {
  ts: number;
  dur: number;
  key: string;
  url?: string;
  functionName?: string;
  frameId?: string;
  activity?: string;
}

export class TraceDigest {
  private readonly navigations = new Map<string, Navigation>();
  private readonly marks: { name: string; ts: number }[] = [];
  private readonly paints = new Map<string, Paint>();
  /** Image URLs by backend node id, from Chrome's image candidates (the LCP event lacks the URL). */
  private readonly images = new Map<number, string>();
  private readonly shiftList: LayoutShift[] = [];
  private readonly works: Work[] = [];
  /** The main frame's renderer processes, and the main threads of every renderer. */
  private readonly mainPids = new Set<number>();
  private readonly mainThreads = new Set<string>();
  private readonly tasks: Task[] = [];
  private dropped = 0;

  /** `mainFrameId`: the tab's top frame, whose id stays across its navigations. */
  constructor(private readonly mainFrameId: string) {}

  add(events: readonly TraceEvent[]): void {
    for (const event of events) this.one(event);
  }

  /**
   * `isTabFrame`: whether a frame is the tab's. A renderer may run other tabs of the same site too: a long task whose
   * work was for another tab's frame is not this tab's.
   */
  findings(isTabFrame: (frameId: string) => boolean = () => true): Findings {
    // The latest load of the trace (one started by a reload, or one the page made since).
    const navigation = [...this.navigations.entries()]
      .filter(([, each]) => Number.isFinite(each.startTs))
      .sort((a, b) => b[1].startTs - a[1].startTs)[0];
    const paint = navigation && this.paints.get(navigation[0]);
    const tasks = this.tasks
      .filter((task) => this.isMainThread(task.key))
      .map((task) => this.attributed(task))
      .filter((task) => task.frameId === undefined || isTabFrame(task.frameId));
    return {
      ...(navigation ? { load: this.load(navigation[1]) } : {}),
      ...(navigation && paint ? { lcp: this.largestPaint(paint, navigation[1]) } : {}),
      shifts: [...this.shiftList].sort((a, b) => a.ts - b.ts),
      longTasks: {
        count: tasks.length,
        totalMs: Math.round(tasks.reduce((sum, task) => sum + task.ms, 0)),
        longest: tasks.sort((a, b) => b.ms - a.ms).slice(0, KEPT_LONG_TASKS),
      },
      dropped: this.dropped,
    };
  }

  private one(event: TraceEvent): void {
    const args = event.args ?? {};
    const data = record(args['data']);
    const frame = str(args['frame']) ?? str(data['frame']) ?? str(record(args['beginData'])['frame']);
    switch (event.name) {
      case 'thread_name':
        if (record(args)['name'] === 'CrRendererMain') this.mainThreads.add(`${event.pid}:${event.tid}`);
        return;
      case 'TracingStartedInBrowser':
        for (const each of Array.isArray(data['frames']) ? data['frames'] : []) this.browserFrame(record(each));
        return;
      case 'FrameCommittedInBrowser':
        return this.browserFrame(data);
      case 'navigationStart':
        return this.navigationStart(event, frame, data);
      case 'ResourceReceiveResponse':
        return this.documentResponse(event, data);
      case 'domContentLoadedEventEnd':
      case 'loadEventEnd':
        if (frame === this.mainFrameId) this.keep(this.marks, { name: event.name, ts: event.ts }, MAX_MARKS);
        return;
      case 'largestContentfulPaint::Candidate':
        return this.paint(event, frame, data, 'lcp');
      case 'LargestImagePaint::Candidate':
        return this.paint(event, frame, data, 'image');
      case 'LayoutShift':
        return this.shift(event, frame, data);
      case 'RunTask':
        return this.task(event);
      case 'FunctionCall':
      case 'EvaluateScript':
        return this.work(event, { url: str(data['url']), functionName: str(data['functionName']), frameId: frame });
      default:
        if (ACTIVITIES[event.name]) this.work(event, { activity: ACTIVITIES[event.name], frameId: frame });
    }
  }

  private browserFrame(data: Record<string, unknown>): void {
    if (str(data['frame']) === this.mainFrameId && typeof data['processId'] === 'number')
      this.mainPids.add(data['processId']);
  }

  private navigationStart(event: TraceEvent, frame: string | undefined, data: Record<string, unknown>): void {
    const url = str(data['documentLoaderURL']);
    const id = str(data['navigationId']);
    // Chrome marks the initial empty document too: only a real document's navigation is a load to time.
    if (frame !== this.mainFrameId || !id || !url || url.startsWith('about:')) return;
    this.mainPids.add(event.pid);
    if (!this.navigations.has(id) && this.navigations.size >= MAX_NAVIGATIONS) return void this.dropped++;
    this.navigations.set(id, { ...this.navigations.get(id), url, startTs: event.ts });
  }

  /** The main document's response: its request id is the navigation's id. */
  private documentResponse(event: TraceEvent, data: Record<string, unknown>): void {
    const id = str(data['requestId']);
    const navigation = id === undefined ? undefined : this.navigations.get(id);
    const timing = record(data['timing']);
    const requestTime = timing['requestTime'];
    const headers = timing['receiveHeadersStart'] ?? timing['receiveHeadersEnd'];
    if (id === undefined || (!navigation && this.navigations.size >= MAX_NAVIGATIONS)) return;
    const entry = navigation ?? { url: '', startTs: Number.NaN };
    entry.responseTs = event.ts;
    // requestTime is seconds on the trace's own clock; the header times are ms after it.
    if (typeof requestTime === 'number' && typeof headers === 'number' && headers >= 0)
      entry.firstByteTs = (requestTime * 1000 + headers) * 1000;
    this.navigations.set(id, entry);
  }

  private load(navigation: Navigation): LoadTimings {
    const after = navigation.responseTs ?? navigation.startTs;
    const first = (name: string) =>
      this.marks.filter((mark) => mark.name === name && mark.ts >= after).sort((a, b) => a.ts - b.ts)[0];
    const since = (ts: number | undefined) =>
      ts === undefined ? undefined : Math.max(0, Math.round(ts / 1000 - navigation.startTs / 1000));
    const dcl = since(first('domContentLoadedEventEnd')?.ts);
    const load = since(first('loadEventEnd')?.ts);
    const ttfb = since(navigation.firstByteTs);
    return {
      url: navigation.url,
      ...(ttfb !== undefined ? { ttfbMs: ttfb } : {}),
      ...(dcl !== undefined ? { domContentLoadedMs: dcl } : {}),
      ...(load !== undefined ? { loadMs: load } : {}),
    };
  }

  /**
   * The LCP candidate of a navigation with the highest index is its LCP; Chrome's image candidate event carries
   * the image URL that the LCP one lacks, for the same node.
   */
  private paint(
    event: TraceEvent,
    frame: string | undefined,
    data: Record<string, unknown>,
    kind: 'lcp' | 'image',
  ): void {
    if (frame !== this.mainFrameId) return;
    const nodeId = num(data['nodeId']) ?? num(data['DOMNodeId']);
    if (kind === 'image') {
      const url = str(data['imageUrl']);
      if (url === undefined || nodeId === undefined) return;
      if (!this.images.has(nodeId) && this.images.size >= MAX_MARKS) return void this.dropped++;
      this.images.set(nodeId, url);
      return;
    }
    const id = str(data['navigationId']);
    const index = num(data['candidateIndex']) ?? 0;
    if (id === undefined) return;
    const known = this.paints.get(id);
    if (known && known.index > index) return;
    if (!known && this.paints.size >= MAX_NAVIGATIONS) return void this.dropped++;
    const nodeName = str(data['nodeName']);
    const type = str(data['type']);
    this.paints.set(id, {
      index,
      ts: event.ts,
      ...(nodeId !== undefined ? { nodeId } : {}),
      ...(nodeName !== undefined ? { nodeName } : {}),
      ...(type !== undefined ? { type } : {}),
    });
  }

  private largestPaint(paint: Paint, navigation: Navigation): LargestPaint {
    const { index: _index, ts, ...rest } = paint;
    const imageUrl = paint.nodeId === undefined ? undefined : this.images.get(paint.nodeId);
    return {
      ms: Math.max(0, Math.round((ts - navigation.startTs) / 1000)),
      ...rest,
      ...(imageUrl ? { imageUrl } : {}),
    };
  }

  private shift(event: TraceEvent, frame: string | undefined, data: Record<string, unknown>): void {
    // A shift right after the person's input is expected, and CLS leaves it out.
    if (frame === undefined || data['had_recent_input'] === true) return;
    const score = num(data['weighted_score_delta']) ?? num(data['score']) ?? 0;
    const nodes = (Array.isArray(data['impacted_nodes']) ? data['impacted_nodes'] : [])
      .map((node) => num(record(node)['node_id']))
      .filter((id): id is number => id !== undefined)
      .slice(0, MAX_NODES_PER_SHIFT);
    if (this.shiftList.length >= MAX_SHIFTS) return void this.dropped++;
    this.shiftList.push({ ts: event.ts, score, frameId: frame, nodes });
  }

  private task(event: TraceEvent): void {
    const ms = (event.dur ?? 0) / 1000;
    if (event.ph !== 'X' || ms < LONG_TASK_MS) return;
    this.keep(this.tasks, { ts: event.ts, ms: Math.round(ms), key: `${event.pid}:${event.tid}` }, MAX_TASKS);
  }

  private work(event: TraceEvent, what: Pick<Work, 'url' | 'functionName' | 'frameId' | 'activity'>): void {
    const dur = event.dur ?? 0;
    if ((!what.url && !what.activity) || dur < WORK_MS * 1000) return;
    const kept = Object.fromEntries(Object.entries(what).filter(([, value]) => value)) as typeof what;
    this.works.push({ ts: event.ts, dur, key: `${event.pid}:${event.tid}`, ...kept });
    // Over the cap the shortest go (what made a task long is long work), sorted once per cap's worth, not per event.
    if (this.works.length >= MAX_WORKS * 2) {
      this.works.sort((a, b) => b.dur - a.dur).splice(MAX_WORKS);
      this.dropped += MAX_WORKS;
    }
  }

  /** The task, with the longest script that ran inside it on its thread, else the browser's own longest work. */
  private attributed({ ts, ms, key }: Task): LongTask {
    const end = ts + ms * 1000;
    const inside = this.works
      .filter((work) => work.key === key && work.ts >= ts && work.ts <= end)
      .sort((a, b) => b.dur - a.dur);
    const frameId = inside.find((work) => work.frameId)?.frameId;
    const task = { ts, ms, ...(frameId ? { frameId } : {}) };
    const script = inside.find((work) => work.url);
    if (script?.url) {
      const { url, functionName, frameId: where } = script;
      return {
        ...task,
        script: { url, ...(functionName ? { functionName } : {}), ...(where ? { frameId: where } : {}) },
      };
    }
    return { ...task, ...(inside[0]?.activity ? { activity: inside[0].activity } : {}) };
  }

  /** A renderer's main thread in one of the main frame's processes (other tabs' and other sites' are not ours). */
  private isMainThread(key: string): boolean {
    const pid = Number(key.split(':')[0]);
    return this.mainPids.has(pid) && this.mainThreads.has(key);
  }

  private keep<T>(list: T[], item: T, cap: number): void {
    if (list.length >= cap) return void this.dropped++;
    list.push(item);
  }
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
