// Who set an inline handler's code after an eval, where Chrome names no one when it runs (no stack, no async parent):
// the page's Trusted Types policy (handler-policy.ts) pauses each write that can hold one (a timer's string and a
// script element's text too), the paused stack tells the agent's script from the page, and the script's texts are kept
// by hash, the name V8 gives the code when it compiles. What a handler of the script's sends is then the script's,
// however late, whoever's function it calls. The script's srcdoc sets pause there too: the frame's owner is told of
// them before the set goes on (srcdoc-setters.ts).
import type { Cdp, CdpEvent } from './cdp.js';
import { frameOrigin, type Frame } from './frame.js';
import { installSource, newDocumentSource, POLICY_URL } from './handler-policy.js';
import { handlerTextsOfHtml, scriptHash } from './handler-texts.js';
import { keepNewest } from './keep-newest.js';
import { evaluateInMainWorld } from './main-world.js';
import type { PageContext } from './page-context.js';
import { ScriptMarks } from './script-marks.js';

// A page's install answers at once; a frame that does not is left unobserved rather than holding the eval.
const INSTALL_MS = 2_000;
// The sink Chrome names a frame's srcdoc by.
const SRCDOC_SINK = 'HTMLIFrameElement srcdoc';
// Script-written handler texts kept per tab: far more than a script writes, a bound on what a loop of writes can grow.
const KEPT_TEXTS = 5_000;

export interface PolicyPause {
  reason: string;
  callFrames: { callFrameId: string; location: { scriptId: string } }[];
}

export class HandlerSetters {
  /** The policy's code (a pause in it is a write told), and each handler compiled from a text the script wrote. */
  private readonly scripts = new ScriptMarks<'policy' | 'handler'>();
  /** Frames whose current document has the policy installed (or refused it); a new document asks again. */
  private readonly installed = new Set<string>();
  /** Per session: the new-document script's id, and the origins it keeps a page's own default policy for. */
  private readonly starts = new Map<string | undefined, { identifier: Promise<string>; origins: string }>();
  /** Hashes of the handler texts the script wrote. */
  private readonly texts = new Set<string>();

  /**
   * `byScript`: the paused stack is the agent's script's, or a document's it wrote (srcdoc-setters.ts). `srcdocSet`: the
   * script sets a srcdoc in the session: resolves once each frame owner there is watched, so the set itself is told.
   */
  constructor(
    private readonly page: PageContext,
    private readonly key: string,
    private readonly byScript: (sessionId: string | undefined, paused: PolicyPause) => boolean,
    private readonly srcdocSet: (sessionId: string | undefined) => Promise<void>,
  ) {}

  get cdp(): Cdp {
    return this.page.cdp;
  }

  /** The policy in each frame's document not yet given it, before the script runs. */
  async arm(frames: readonly Frame[]): Promise<void> {
    const origins = [...new Set(frames.map(frameOrigin).filter((origin) => origin !== undefined))].sort();
    const sessions = [...new Set(frames.map((frame) => frame.sessionId))];
    await Promise.all([
      ...sessions.map((sessionId) => this.start(sessionId, origins)),
      ...frames.filter((frame) => !this.installed.has(frame.frameId)).map((frame) => this.install(frame)),
    ]);
  }

  /** The script `scriptId` of `sessionId` is a handler compiled from a text the script wrote. */
  isHandler(sessionId: string | undefined, scriptId: string | undefined): boolean {
    return this.scripts.get(sessionId, scriptId) === 'handler';
  }

  /** True when the event was a pause of the policy's, told here and resumed. */
  onEvent(event: CdpEvent): boolean {
    const { params, sessionId } = event;
    switch (event.method) {
      case 'Debugger.scriptParsed': {
        this.scripts.parsed(sessionId, params['scriptId'], () => {
          if (params['url'] === POLICY_URL) return 'policy';
          return this.texts.has(String(params['hash'])) ? 'handler' : undefined;
        });
        return false;
      }
      case 'Debugger.paused': {
        const paused = params as unknown as PolicyPause;
        const top = paused.callFrames[0]?.location.scriptId;
        // The policy's `debugger;` statement: a pause of reason "other" (measured on Chromium 156).
        if (paused.reason !== 'other' || this.scripts.get(sessionId, top) !== 'policy') return false;
        void this.told(sessionId, paused).finally(() => this.resume(sessionId));
        return true;
      }
      case 'Page.frameNavigated':
        this.installed.delete((params['frame'] as { id: string }).id);
        return false;
    }
    return false;
  }

  /**
   * A write of the script's: the texts it gives handlers are kept before its code goes on, so none can run untold. A
   * srcdoc it sets on a frame the page inserted in this very task meets no breakpoint on the frame's owner yet: the set
   * goes on once one stands, and pauses there with the script's stack.
   */
  private async told(sessionId: string | undefined, paused: PolicyPause): Promise<void> {
    const [policy] = paused.callFrames;
    if (!policy || !this.byScript(sessionId, paused)) return;
    const { result } = await this.cdp.send<{ result: { value?: unknown } }>(
      'Debugger.evaluateOnCallFrame',
      { callFrameId: policy.callFrameId, expression: '[text, html, sink]', returnByValue: true, silent: true },
      sessionId,
    );
    const [text, html, sink] = Array.isArray(result.value) ? result.value : [];
    if (typeof text !== 'string') return;
    if (sink === SRCDOC_SINK) await this.srcdocSet(sessionId);
    const texts = html === true ? handlerTextsOfHtml(text) : [text];
    for (const hash of await Promise.all(texts.map(scriptHash))) {
      this.texts.add(hash);
      keepNewest(this.texts, KEPT_TEXTS);
    }
  }

  /** Each new document of the session gets the policy's start, for the origins readable now (kept, or replaced). */
  private async start(sessionId: string | undefined, origins: string[]): Promise<void> {
    const listed = JSON.stringify(origins);
    const was = this.starts.get(sessionId);
    if (was?.origins === listed) return void (await was.identifier);
    const identifier = this.cdp
      .send<{ identifier: string }>(
        'Page.addScriptToEvaluateOnNewDocument',
        {
          source: newDocumentSource(this.key, origins),
        },
        sessionId,
      )
      .then((added) => added.identifier);
    this.starts.set(sessionId, { identifier, origins: listed });
    await identifier;
    // The start it replaces goes once this one stands: no new document meets neither.
    const old = await was?.identifier.catch(() => undefined);
    if (old !== undefined)
      await this.cdp.send('Page.removeScriptToEvaluateOnNewDocument', { identifier: old }, sessionId);
  }

  private async install(frame: Frame): Promise<void> {
    this.installed.add(frame.frameId);
    try {
      await evaluateInMainWorld(this.page, frame, installSource(this.key), INSTALL_MS);
    } catch {
      // A document gone or refusing: unobserved, as before the policy.
      this.installed.delete(frame.frameId);
    }
  }

  private resume(sessionId: string | undefined): void {
    void this.cdp.send('Debugger.resume', {}, sessionId).catch(() => undefined);
  }
}
