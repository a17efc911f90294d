// Snapshot reuse on trust: the renderer's style-recalc and layout counts (Performance.getMetrics), read before a walk
// and again after a repeat, vouch that no computed style the walk read can have changed, so the page need not read them.
import type { Cdp, CdpEvent } from './cdp.js';
import type { Frame } from './frame.js';
import type { FrameOutline } from './page/snapshot-frame.js';

/** What the engine vouches for in a frame: the stamp its page named `trust`, checked whole when the counts were `counts`. */
interface Vouched {
  trust: number;
  counts: string;
}

/** One snapshot call into a frame, with `trust` to pass to the page. */
export type FrameSnapshotCall = (trust: number | null) => Promise<FrameOutline>;

/**
 * A computed style changes only in a style recalc, and a box only in a layout; the renderer counts both for the
 * session's frames (the frames of one process, same-site iframes included). So when the counts read before the last
 * whole check of a frame's stamp equal those read after a repeat call brought style and layout up to date, nothing
 * the stamp's style part covers changed: a rule edited through the CSSOM, media, a font, a popover, hover all recalc.
 * The page still reads what changes with neither (DOM mutations, fields). Any count that moved, an animation, our own
 * pill, or no counts at all, sends the call back to the page's whole check: it costs time, never exactness.
 */
export class SnapshotTrust {
  private readonly vouched = new Map<string, Vouched>();
  /** Sessions whose Performance domain we enabled (the tab's own as ''). */
  private readonly enabled = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(private readonly cdp: Cdp) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
  }

  dispose(): void {
    this.unsubscribe();
  }

  /**
   * The frame's outline by `call`: with the page's last stamp name when the counts read before its last whole check
   * may vouch for it, taken when they still equal those read just after this call; else called again without trust.
   */
  async outline(frame: Frame, call: FrameSnapshotCall): Promise<FrameOutline> {
    const vouched = this.vouched.get(frame.frameId);
    // An overlapping call finds nothing to vouch for until this one has checked.
    this.vouched.delete(frame.frameId);
    // Sent before the call: whatever ran after this read moved the counts the next call compares.
    const before = this.counts(frame.sessionId);
    const outline = await call(vouched?.trust ?? null);
    if (outline.trusted) {
      // Read once the call has answered: a command sent beside it may reach the renderer first (seen in tests).
      const now = await this.counts(frame.sessionId);
      if (vouched && now !== undefined && now === vouched.counts) {
        this.vouched.set(frame.frameId, vouched);
        return outline;
      }
      return this.outline(frame, call);
    }
    const counts = await before;
    if (counts !== undefined) this.vouched.set(frame.frameId, { trust: outline.trust, counts });
    return outline;
  }

  /** The session's style-recalc and layout counts, enabling what counts them first; undefined when not told. */
  private async counts(sessionId: string | undefined): Promise<string | undefined> {
    const key = sessionId ?? '';
    if (!this.enabled.has(key)) {
      this.enabled.add(key);
      void this.cdp.send('Performance.enable', {}, sessionId).catch(() => this.enabled.delete(key));
    }
    try {
      const { metrics } = await this.cdp.send<{ metrics: { name: string; value: number }[] }>(
        'Performance.getMetrics',
        {},
        sessionId,
      );
      const value = (name: string) => metrics.find((metric) => metric.name === name)?.value;
      const recalcs = value('RecalcStyleCount');
      const layouts = value('LayoutCount');
      if (recalcs !== undefined && layouts !== undefined) return `${recalcs} ${layouts}`;
    } catch {
      // The session went away: nothing is vouched for, the page checks whole.
    }
    // Not enabled (a renderer swapped in): enable again on the next read.
    this.enabled.delete(key);
    return undefined;
  }

  private onEvent(event: CdpEvent): void {
    if (event.method === 'Inspector.detached') {
      this.enabled.clear();
      this.vouched.clear();
    } else if (event.method === 'Target.detachedFromTarget') {
      this.enabled.delete(String(event.params['sessionId']));
    } else if (event.method === 'Page.frameDetached') {
      this.vouched.delete(String(event.params['frameId']));
    }
  }
}
