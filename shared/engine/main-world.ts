// Runs script in a frame's MAIN world (the page's own globals), not our isolated one: eval must see what the page sees.
import { ToolError } from '../protocol/errors.js';
import type { Frame } from './frames.js';
import type { Cdp } from './cdp.js';
import type { PageContext } from './page-context.js';

export interface RemoteObject {
  type: string;
  subtype?: string;
  value?: unknown;
  unserializableValue?: string;
  description?: string;
  objectId?: string;
}

export interface ExceptionDetails {
  text: string;
  exception?: RemoteObject;
}

export interface MainWorldResult {
  result: RemoteObject;
  exceptionDetails?: ExceptionDetails;
  /** Something of the call stays in EVAL_GROUP (an object answered or thrown, a promise awaited, a frame's document). */
  kept?: true;
}

/** Remote objects from eval live in this group so one call releases them all. */
export const EVAL_GROUP = 'chrome-mcp-eval';

/**
 * Evaluates `expression` in the frame's main world (the top document when no frame) and awaits a promise result.
 * A frame that roots its own session (the tab, an out-of-process iframe) takes Runtime.evaluate in REPL mode, so
 * top-level await works. A same-process child frame has no session of its own and CDP names no way to its main
 * world's context id short of Runtime.enable (which replays the console and is shared state other tools rely on);
 * its document, resolved through DOM.resolveNode, lives in that main world, and an indirect eval called on it runs
 * there. DevTools evaluation is exempt from the page's CSP, so this works where the page forbids eval.
 * `agentScript`: the agent's own script, which runs as a user gesture, giving the frame (and its ancestors) a user
 * activation (our checks would otherwise hand a page they refused, or a frame the script never ran in, the right to
 * open windows and use gesture-gated APIs); its `sent` is called once the command is on its way, before any other of
 * the session's can overtake it.
 */
export async function evaluateInMainWorld(
  page: PageContext,
  frame: Frame | undefined,
  expression: string,
  timeoutMs: number,
  uniqueContextId?: string,
  agentScript?: { sent(sessionId: string | undefined): void },
): Promise<MainWorldResult> {
  const gesture = agentScript !== undefined;
  if (frame === undefined || (await rootsSession(page, frame))) {
    const evaluating = page.cdp.send<MainWorldResult>(
      'Runtime.evaluate',
      {
        expression,
        // The top document's main world by its unique id (quiet-document.ts): the browser refuses it in any other.
        ...(uniqueContextId === undefined ? {} : { uniqueContextId }),
        replMode: true,
        awaitPromise: true,
        userGesture: gesture,
        objectGroup: EVAL_GROUP,
        timeout: timeoutMs,
      },
      frame?.sessionId,
    );
    agentScript?.sent(frame?.sessionId);
    const evaluated = await evaluating;
    // REPL mode awaits its own wrapper, not a promise the expression evaluates to; that one is awaited here.
    const { result } = evaluated;
    if (evaluated.exceptionDetails || result.subtype !== 'promise' || !result.objectId) return keeping(evaluated);
    const awaited = await page.cdp.send<MainWorldResult>(
      'Runtime.awaitPromise',
      { promiseObjectId: result.objectId },
      frame?.sessionId,
    );
    return { ...awaited, kept: true };
  }
  const { backendNodeId } = await page.cdp.send<{ backendNodeId: number }>(
    'DOM.getFrameOwner',
    { frameId: frame.frameId },
    frame.sessionId,
  );
  const { node } = await page.cdp.send<{ node: { contentDocument?: { backendNodeId: number } } }>(
    'DOM.describeNode',
    { backendNodeId },
    frame.sessionId,
  );
  if (!node.contentDocument) throw new ToolError('EVAL_FAILED', `Frame f${frame.ordinal} has no document yet.`);
  const { object } = await page.cdp.send<{ object: RemoteObject }>(
    'DOM.resolveNode',
    { backendNodeId: node.contentDocument.backendNodeId, objectGroup: EVAL_GROUP },
    frame.sessionId,
  );
  const calling = page.cdp.send<MainWorldResult>(
    'Runtime.callFunctionOn',
    {
      objectId: object.objectId,
      functionDeclaration: 'function (expression) { return (0, eval)(expression); }',
      arguments: [{ value: expression }],
      awaitPromise: true,
      userGesture: gesture,
      objectGroup: EVAL_GROUP,
    },
    frame.sessionId,
  );
  agentScript?.sent(frame.sessionId);
  return { ...(await calling), kept: true };
}

/**
 * Marks an answer that left an object in EVAL_GROUP. A primitive comes by value and keeps nothing, so the steady eval of
 * one skips the release (one command fewer per call).
 */
function keeping(answer: MainWorldResult): MainWorldResult {
  const kept = answer.result.objectId !== undefined || answer.exceptionDetails?.exception?.objectId !== undefined;
  return kept ? { ...answer, kept: true } : answer;
}

/** The frame is the top of its session's tree (the tab's main frame, or an out-of-process iframe). */
async function rootsSession(page: PageContext, frame: Frame): Promise<boolean> {
  const parent = (await page.frames.list()).find((candidate) => candidate.frameId === frame.parentFrameId);
  return !parent || parent.sessionId !== frame.sessionId;
}

/**
 * The node `objectId` names (in any world) as its frame's main world sees it: DOM.resolveNode with no context resolves
 * there. What lives only in the page's world is reached through it (its listeners, an editor's API).
 */
export async function nodeInMainWorld(
  cdp: Cdp,
  sessionId: string | undefined,
  objectId: string,
  objectGroup?: string,
): Promise<string | undefined> {
  const { node } = await cdp.send<{ node: { backendNodeId: number } }>('DOM.describeNode', { objectId }, sessionId);
  const { object } = await cdp.send<{ object: { objectId?: string } }>(
    'DOM.resolveNode',
    { backendNodeId: node.backendNodeId, ...(objectGroup === undefined ? {} : { objectGroup }) },
    sessionId,
  );
  return object.objectId;
}
