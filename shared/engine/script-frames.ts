// The frames whose document an agent's script wrote (a srcdoc, blob: or data: frame it added, a blank one it holds): that
// document's own scripts are not the tagged one, so no initiator stack names the script, yet all they send is its doing.
import type { CdpEvent } from './cdp.js';
import type { Initiator, StackTrace } from './script-initiator.js';
import { ScriptMarks } from './script-marks.js';

// Documents with no address on the network: whoever made the frame wrote what they hold.
const WRITTEN = /^(about|blob|data):/;

interface Sent {
  frameId?: string;
  type?: string;
  initiator?: Initiator;
  request: { url: string };
}

export class ScriptFrames {
  /** Frames whose current document the script wrote, or that such a document holds. */
  private readonly held = new Set<string>();
  /** Each script a held document ran, marked with its frame: a stack naming one is that document's. */
  private readonly scripts = new ScriptMarks<string>();
  /** Per frame, the page with no address the script asked it to load: held once that page commits there. */
  private readonly asked = new Map<string, string>();

  /**
   * `evalRunning`: an eval of the agent's is under way. `setByScript`: told once per navigation a frame asks for, whether
   * the script (or nothing known) set its owner since the last (srcdoc-setters.ts). `byScript`: the stack is the
   * script's (script-code.ts, which asks `ranHeld` too).
   */
  constructor(
    private readonly evalRunning: () => boolean,
    private readonly setByScript: (frameId: string) => boolean,
    private readonly byScript: (sessionId: string | undefined, stack: StackTrace | undefined) => boolean,
  ) {}

  onEvent(event: CdpEvent): void {
    const params = event.params;
    switch (event.method) {
      case 'Page.frameAttached': {
        // Measured on Chromium 156: the attaching stack names the eval's sourceURL (its async parents too).
        const stack = params['stack'] as StackTrace | undefined;
        const parent = params['parentFrameId'] as string | undefined;
        if (this.byScript(event.sessionId, stack) || (parent !== undefined && this.held.has(parent)))
          this.held.add(String(params['frameId']));
        return;
      }
      case 'Page.frameNavigated': {
        // A web page of its own in the frame is that site's, no longer the script's writing.
        const frame = params['frame'] as { id: string; url: string };
        const asked = this.asked.get(frame.id);
        this.asked.delete(frame.id);
        if (!WRITTEN.test(frame.url)) this.release(frame.id);
        else if (asked === frame.url) this.held.add(frame.id);
        return;
      }
      case 'Page.frameRequestedNavigation': {
        // A frame's srcdoc set names no stack and asks nothing of the network (measured on Chromium 156: only this
        // event, reason scriptInitiated, the same for the page's set and a timer's the script left); while an eval runs
        // it is taken for the script's, as the page's code then may be too, and later unless the page's own stack set it.
        const byScript = this.setByScript(String(params['frameId']));
        if (params['url'] === 'about:srcdoc' && (this.evalRunning() || byScript))
          this.asked.set(String(params['frameId']), 'about:srcdoc');
        return;
      }
      case 'Page.frameDetached':
        if (params['reason'] === 'swap') return;
        this.asked.delete(String(params['frameId']));
        return this.release(String(params['frameId']));
      case 'Debugger.scriptParsed': {
        const frameId = (params['executionContextAuxData'] as { frameId?: string } | undefined)?.frameId;
        this.scripts.parsed(event.sessionId, params['scriptId'], () =>
          frameId !== undefined && this.held.has(frameId) ? frameId : undefined,
        );
        return;
      }
    }
  }

  /**
   * A request a document the script wrote made: in its frame (its parser's too, which names no stack), or from its code
   * in another frame (a same-origin srcdoc or blob document calls its parent's fetch, or moves its parent). `tainted`:
   * the request is already known as the script's; a page with no address it asks a frame to load is its writing once
   * it commits there (a blob it downloads commits nothing, and leaves the frame's page as it was).
   */
  fromWritten(sessionId: string | undefined, sent: Sent, tainted: boolean): boolean {
    if (sent.frameId === undefined) return this.byScript(sessionId, sent.initiator?.stack);
    if (tainted && sent.type === 'Document' && WRITTEN.test(sent.request.url))
      this.asked.set(sent.frameId, sent.request.url);
    return this.held.has(sent.frameId) || this.byScript(sessionId, sent.initiator?.stack);
  }

  /** The script wrote into the frame's document (srcdoc-setters.ts): what it holds is the script's writing. */
  hold(frameId: string): void {
    this.held.add(frameId);
  }

  /** The script is one a document the script wrote runs. */
  ranHeld(sessionId: string | undefined, scriptId: string): boolean {
    return this.scripts.has(sessionId, scriptId);
  }

  private release(frameId: string): void {
    if (!this.held.delete(frameId)) return;
    this.scripts.forget((frame) => frame === frameId);
  }
}
