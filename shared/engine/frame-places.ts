// Where each frame's document stands for the policy: followed live from navigation events, so a check never judges an
// older document, and the main frame's URL is known to acts without a round trip.
import type { Cdp, CdpEvent } from './cdp.js';
import type { AccessLevel } from '../policy/levels.js';
import { isOpaqueBlank, type DocumentPlace, type PolicyGate } from './policy-gate.js';
import type { Frame, MainFrame } from './frame.js';

interface NavigatedFrame {
  id: string;
  parentId?: string;
  url: string;
  urlFragment?: string;
  securityOrigin?: string;
}

export class FramePlaces {
  /** The main frame as its navigation events last told it. */
  private mainFrame: MainFrame | undefined;
  /** Each frame's document as its last navigation told it. */
  private readonly places = new Map<string, DocumentPlace>();
  /** Every frame the last listing found, by id: a frame's parent is looked up here. */
  private readonly seen = new Map<string, Frame>();
  private readonly unsubscribe: () => void;

  constructor(
    cdp: Cdp,
    private readonly gate: PolicyGate,
  ) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
  }

  dispose(): void {
    this.unsubscribe();
  }

  /** The main frame as last told, if it was; `learned` stands until a navigation event tells otherwise. */
  main(learned?: MainFrame): MainFrame | undefined {
    this.mainFrame ??= learned;
    return this.mainFrame && { ...this.mainFrame };
  }

  isMain(frameId: string | undefined): boolean {
    return frameId !== undefined && frameId === this.mainFrame?.id;
  }

  /** The frames a listing found: a frame's parent is looked up among them. */
  remember(frames: Frame[]): void {
    this.seen.clear();
    for (const frame of frames) this.seen.set(frame.frameId, frame);
  }

  /**
   * Where the frame's document is now: its last navigation, else what the listing said. A sandboxed srcdoc or blank
   * frame has an opaque origin; its content came from the frame that made it, so it stands where its parent does.
   */
  placeOf(frame: Frame): DocumentPlace {
    const own = this.places.get(frame.frameId) ?? { url: frame.url, origin: frame.origin };
    const parent = frame.parentFrameId === undefined ? undefined : this.seen.get(frame.parentFrameId);
    return parent && isOpaqueBlank(own) ? this.placeOf(parent) : own;
  }

  /** Throws the policy's refusal when the frame's own site does not allow `need`. */
  require(frame: Frame, need: AccessLevel): void {
    this.gate.require(this.placeOf(frame), need, frame.ordinal === 0 ? undefined : `Frame f${frame.ordinal}`);
  }

  allows(frame: Frame, need: AccessLevel): boolean {
    return this.gate.allows(this.placeOf(frame), need);
  }

  /** Throws the policy's refusal when the tab's top document (`main`, as first asked) does not allow `need`. */
  requireMain(main: MainFrame, need: AccessLevel): void {
    this.gate.require(this.places.get(main.id) ?? main, need);
  }

  /**
   * A frame as ops see it. The path and query of a frame whose site may not be read are the person's business (an
   * account number in a bank's iframe URL), so such a frame is named by its origin alone.
   */
  shown(frame: Frame): Frame {
    if (this.allows(frame, 'read')) return { ...frame };
    return { ...frame, url: originOf(this.placeOf(frame)) };
  }

  private onEvent(event: CdpEvent): void {
    switch (event.method) {
      case 'Page.frameNavigated': {
        const frame = event.params['frame'] as NavigatedFrame;
        const origin = frame.securityOrigin === undefined ? {} : { origin: frame.securityOrigin };
        const place = { url: frame.url + (frame.urlFragment ?? ''), ...origin };
        this.places.set(frame.id, place);
        if (event.sessionId === undefined && frame.parentId === undefined) this.mainFrame = { id: frame.id, ...place };
        return;
      }
      case 'Page.frameDetached':
        this.places.delete(String(event.params['frameId']));
        return;
      case 'Page.navigatedWithinDocument': {
        // Same document, same origin: only the URL moves.
        const frameId = String(event.params['frameId']);
        const place = this.places.get(frameId);
        if (place) place.url = String(event.params['url']);
        if (event.sessionId === undefined && this.mainFrame?.id === frameId) {
          this.mainFrame.url = String(event.params['url']);
        }
        return;
      }
      case 'Inspector.detached':
        this.mainFrame = undefined;
        this.places.clear();
        return;
    }
  }
}

function originOf(place: DocumentPlace): string {
  try {
    const origin = new URL(place.url).origin;
    return origin === 'null' ? (place.origin ?? place.url.split(/[?#]/)[0]!) : origin;
  } catch {
    return '(unknown)';
  }
}
