// A tab's page scripts as the Debugger domain tells them (Debugger.scriptParsed) in every frame's session, kept per
// frame until its document goes, so `sources` lists, searches and reads them and `inspect` names a listener's file.
//
// It listens from the tab's first attach, not from its first use: the egress trail enables Debugger on every session
// an eval touches, and a second Debugger.enable replays nothing, so scripts told to the trail are known here too.
// Debugger is never disabled here (the trail's async stacks need it); enabling it always skips the page's own pauses.
import type { Cdp, CdpEvent } from './cdp.js';
import { POLICY_URL } from './handler-policy.js';
import { SCRIPT_TAG } from './script-initiator.js';
import { TabCapture } from './tab-capture.js';

export interface ScriptEntry {
  /** Short and per tab: what the model names a script by. */
  id: number;
  /** V8's id, valid in `sessionId` only. */
  scriptId: string;
  sessionId: string | undefined;
  frameId: string;
  url: string;
  /** Characters of source. */
  length: number;
  /** Where the script starts in its file, 0-based: an inline script starts at its <script> tag's line. */
  startLine: number;
  /** As the script's `//# sourceMappingURL` named it; '' when it names none. */
  sourceMapURL: string;
}

interface ScriptParsed {
  scriptId: string;
  url: string;
  length?: number;
  startLine: number;
  sourceMapURL?: string;
  executionContextAuxData?: { frameId?: string; isDefault?: boolean };
}

/** The newest are kept: a page that keeps making scripts (eval with sourceURL) cannot grow the log without end. */
const MAX_SCRIPTS = 2_000;

export class ScriptLog {
  private readonly scripts: ScriptEntry[] = [];
  private next = 0;
  private readonly capture: TabCapture;
  private readonly unsubscribe: () => void;

  /**
   * `frameSessions`: the sessions holding the tab's frames now (its own first); workers' are not the page's.
   * `followed`: the egress trail follows the session, and keeps its breakpoints active (egress-trail.ts).
   */
  constructor(
    private readonly cdp: Cdp,
    frameSessions: () => Promise<(string | undefined)[]>,
    private readonly followed: (sessionId: string | undefined) => boolean,
  ) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
    this.capture = new TabCapture(cdp, frameSessions, {
      enable: (sessionId, targetType) =>
        targetType === undefined || targetType === 'iframe' ? this.enable(sessionId) : Promise.resolve(),
      // Events come through the listener above, which runs from the start.
      onEvent: () => undefined,
    });
  }

  /** Enables Debugger on every frame session once (and on frames that attach later); V8 then tells their scripts. */
  start(): Promise<void> {
    return this.capture.start();
  }

  dispose(): void {
    this.unsubscribe();
    this.capture.dispose();
  }

  /** Every script known, oldest first: the caller judges each by its frame. */
  list(): readonly ScriptEntry[] {
    return this.scripts;
  }

  byId(id: number): ScriptEntry | undefined {
    return this.scripts.find((script) => script.id === id);
  }

  /** The script a listener or stack frame names by V8's id in its session. */
  byScriptId(sessionId: string | undefined, scriptId: string): ScriptEntry | undefined {
    return this.scripts.find((script) => script.sessionId === sessionId && script.scriptId === scriptId);
  }

  private async enable(sessionId: string | undefined): Promise<void> {
    // A frame gone meanwhile answers with an error; the others go on. With breakpoints inactive, the page's own
    // `debugger;` statements do not stop it now that a debugger listens, and the egress trail's DOM breakpoints still
    // pause (srcdoc-setters.ts), as skipping every pause would not let them. A session the trail follows keeps them
    // active for its listener breakpoints, and the trail resumes each pause.
    await Promise.all([
      this.cdp.send('Debugger.enable', {}, sessionId).catch(() => undefined),
      this.followed(sessionId)
        ? undefined
        : this.cdp.send('Debugger.setBreakpointsActive', { active: false }, sessionId).catch(() => undefined),
    ]);
  }

  private onEvent({ method, params, sessionId }: CdpEvent): void {
    switch (method) {
      case 'Debugger.scriptParsed':
        return this.parsed(params as unknown as ScriptParsed, sessionId);
      // A document's scripts go with it (a navigation, or the frame removed), and a session's with the session.
      case 'Page.frameNavigated':
        return this.drop((script) => script.frameId === (params['frame'] as { id: string }).id);
      case 'Page.frameDetached':
        return this.drop((script) => script.frameId === params['frameId']);
      case 'Target.detachedFromTarget':
        return this.drop((script) => script.sessionId === params['sessionId']);
      case 'Inspector.detached':
        return this.drop((script) => sessionId === undefined || script.sessionId === sessionId);
    }
  }

  private parsed(script: ScriptParsed, sessionId: string | undefined): void {
    const aux = script.executionContextAuxData;
    // Only the page's own: not our isolated worlds (the page library), not code with no URL (every evaluate and
    // callFunctionOn, ours included), not an agent's eval, which carries our tag, nor the handler policy an eval puts in
    // the page (handler-policy.ts); nor a worker's (no frame).
    if (aux?.frameId === undefined || aux.isDefault === false) return;
    if (script.url === '' || script.url.startsWith(SCRIPT_TAG) || script.url === POLICY_URL) return;
    this.scripts.push({
      id: ++this.next,
      scriptId: script.scriptId,
      sessionId,
      frameId: aux.frameId,
      url: script.url,
      length: script.length ?? 0,
      startLine: script.startLine,
      sourceMapURL: script.sourceMapURL ?? '',
    });
    if (this.scripts.length > MAX_SCRIPTS) this.scripts.shift();
  }

  private drop(gone: (script: ScriptEntry) => boolean): void {
    const kept = this.scripts.filter((script) => !gone(script));
    this.scripts.splice(0, this.scripts.length, ...kept);
  }
}
