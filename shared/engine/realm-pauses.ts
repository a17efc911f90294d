// A pause as each new document's realm is made, before any code can reach it: the trail arms the realm's constructors
// there, as a frame a script inserts is reachable in the same task, long before its context's event is answered.
import type { Cdp, CdpEvent } from './cdp.js';
import type { PausedStack } from './script-code.js';
import { ScriptMarks } from './script-marks.js';

// Our world, and the URL its one statement names: a pause there is a realm made, not anyone's code.
const REALM_WORLD = '__chrome_mcp_realms__';
const REALM_URL = 'chrome-mcp-realms://made';
const REALM_SOURCE = `debugger;\n//# sourceURL=${REALM_URL}`;
// Far more documents than a tab loads while the trail follows it; a long-gone one's statement may be forgotten.
const KEPT_REALMS = 1_000;

/**
 * Measured on Chromium 156: a document's isolated-world scripts run as its main world is made (a frame just inserted
 * too, as the script first touches its window), the main world's executionContextCreated told before; the page's code
 * waits while the pause lasts, so what the trail arms in the new realm stands before the script's next statement.
 */
export class RealmPauses {
  /** `session:scriptId` of our statement in each document, marked with the document's frame id. */
  private readonly ours = new ScriptMarks<string>(KEPT_REALMS);

  /**
   * `byScript`: the stack under our statement is the agent's script's code (script-code.ts). `settled`: resolves once
   * what the session arms for any new frame stands. `rearm`: the session's constructors set again, for the new realm;
   * `byScript` tells whether the script's code is making it. `topDocument`: the frame is the tab's top one.
   */
  constructor(
    private readonly cdp: Cdp,
    private readonly byScript: (sessionId: string | undefined, paused: PausedStack) => boolean,
    private readonly settled: (sessionId: string | undefined) => Promise<unknown>,
    private readonly rearm: (sessionId: string | undefined, byScript: boolean) => Promise<unknown>,
    private readonly topDocument: (sessionId: string | undefined, frameId: string) => boolean,
  ) {}

  /** Each new document of the session pauses once (breakpoints are active there). */
  async arm(sessionId: string | undefined): Promise<void> {
    await this.cdp.send(
      'Page.addScriptToEvaluateOnNewDocument',
      { source: REALM_SOURCE, worldName: REALM_WORLD },
      sessionId,
    );
  }

  /** True when the event was our pause, resumed once what the new realm needs stands. */
  onEvent({ method, params, sessionId }: CdpEvent): boolean {
    if (method === 'Debugger.scriptParsed') {
      // Only our world is not default: code of the page's naming itself by our URL is no realm made.
      const world = params['executionContextAuxData'] as { isDefault?: boolean; frameId?: string } | undefined;
      this.ours.parsed(sessionId, params['scriptId'], () =>
        params['url'] === REALM_URL && world?.isDefault === false ? (world.frameId ?? '') : false,
      );
      return false;
    }
    if (method !== 'Debugger.paused') return false;
    const paused = params as unknown as PausedStack;
    const [top, ...under] = paused.callFrames;
    const frameId = this.ours.get(sessionId, top?.location.scriptId);
    if (frameId === undefined) return false;
    // A realm the page makes is set again too, before the page goes on: the script's code may reach it any time later
    // (frames[0].WebSocket from a timer), and a set after the pause would leave every realm unarmed between its
    // remove and its set while the page's code runs. The tab's new top document is not: the page the script ran in is
    // gone with its frames, and each navigation would pay the set (tens of ms, more with a large heap).
    const script = this.byScript(sessionId, { ...paused, callFrames: under });
    const again = script || !this.topDocument(sessionId, frameId);
    void Promise.all([this.settled(sessionId), again ? this.rearm(sessionId, script) : undefined])
      .catch(() => undefined)
      .then(() => this.cdp.send('Debugger.resume', {}, sessionId))
      .catch(() => undefined);
    return true;
  }
}
