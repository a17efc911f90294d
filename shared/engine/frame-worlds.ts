// One isolated world per frame, where our in-page library runs unseen by the page, and the typed call into it.
import { CdpCommandError, type Cdp, type CdpEvent } from './cdp.js';
import { isErrorCode, ToolError } from '../protocol/errors.js';
import type { Frame } from './frame.js';
import { pageLibrarySource } from './page/library.js';
import type { Handles, PageCallTail, PageFunction, PageResult } from './page/library.js';
import { PERSON_STOP_BINDING } from './presence.js';

export const WORLD_NAME = '__chrome_mcp__';
/** Our top-frame world's password watch tells the engine through it whether its document is quiet (quiet-document.ts). */
export const PASSWORD_BINDING = '__chromeMcpPasswordQuiet';
const KEPT = 'kept:';

/** A handle for the element that pickElement, called with `keep`, kept in the page: a call sent after it can use it. */
export function keptHandle(keep: number): string {
  return `${KEPT}${keep}`;
}

export class FrameWorlds {
  private readonly worlds = new Map<string, Promise<number>>();
  private calls = 0;
  /** The tool call the page calls serve, if any: in-page lookups share what they found within one (page/shadow-hosts.ts). */
  private callNumber: number | undefined;
  private readonly unsubscribe: () => void;

  /** `mayRun` throws when nothing of ours may run in the frame's document (its site may not be read). */
  constructor(
    private readonly cdp: Cdp,
    private readonly mayRun: (frame: Frame) => void,
  ) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
  }

  dispose(): void {
    this.unsubscribe();
  }

  /**
   * Calls `__cm.<name>(...args)` from the page library inside the frame's isolated world, typed by the library: `args`
   * are the function's parameters after those that `handles` (object ids of elements found earlier) fill, and the
   * result is what it returns, or with `returnHandle` the object id of the element it returns.
   */
  call<N extends PageFunction, const H extends Handles = [], R extends boolean = false>(
    frame: Frame,
    name: N,
    ...[args, opts]: PageCallTail<N, H, R>
  ): Promise<PageResult<N, R>> {
    // The one untyped step: the page runs the library's own function, whose types are those above.
    const answer = this.run(frame, name, args ?? [], opts?.handles ?? [], opts?.returnHandle === true);
    return answer as Promise<PageResult<N, R>>;
  }

  /**
   * A tool call begins: the page calls until the returned end share their lookups' walks, and none before or after
   * reuse them. A call begun while another runs ends the other's sharing, which costs walks, never exactness.
   */
  beginCall(): () => void {
    const number = ++this.calls;
    this.callNumber = number;
    return () => {
      if (this.callNumber === number) this.callNumber = undefined;
    };
  }

  /** An element a CDP event named by its backend node id (a file chooser's input), as a handle in our world. */
  async resolveNode(frame: Frame, backendNodeId: number): Promise<string> {
    this.mayRun(frame);
    const executionContextId = await this.world(frame);
    const { object } = await this.cdp.send<{ object: { objectId: string } }>(
      'DOM.resolveNode',
      { backendNodeId, executionContextId },
      frame.sessionId,
    );
    return object.objectId;
  }

  /** Releases remote objects we no longer need, so long sessions do not leak page memory. */
  release(frame: Frame, objectIds: string[]): void {
    for (const objectId of objectIds)
      void this.cdp.send('Runtime.releaseObject', { objectId }, frame.sessionId).catch(() => undefined);
  }

  private async run(
    frame: Frame,
    name: string,
    args: readonly unknown[],
    handles: Handles,
    returnHandle: boolean,
  ): Promise<unknown> {
    // The last argument is the tool call's number (undefined outside one), which the library sees as `__cmCall` while
    // the function runs; what it does later (a wait's checks on mutations) sees none, so shares no walk.
    // A first handle `kept:<n>` stands for the element a lookup sent just before kept in the page (see `keptHandle`).
    const kept =
      handles.length > 0 && handles[0]!.startsWith(KEPT) ? Number(handles[0]!.slice(KEPT.length)) : undefined;
    const take = kept === undefined ? '' : 'a[0]=globalThis.__cm.keptElement(a[0]);';
    const declaration = `function(...a){globalThis.__cmCall=a.pop();try{${take}return globalThis.__cm.${name}(...a)}finally{globalThis.__cmCall=undefined}}`;
    const once = async (): Promise<unknown> => {
      // The backstop under every op: nothing of ours runs in, or reads from, a document whose site may not be read.
      this.mayRun(frame);
      const executionContextId = await this.world(frame);
      const params: Record<string, unknown> = {
        functionDeclaration: declaration,
        arguments: [
          ...handles.map((objectId, index) => (index === 0 && kept !== undefined ? { value: kept } : { objectId })),
          ...args.map((value) => ({ value })),
          { value: this.callNumber },
        ],
        returnByValue: !returnHandle,
        awaitPromise: true,
      };
      // An object argument fixes the context; otherwise name the world explicitly.
      if (handles.length === 0 || kept !== undefined) params['executionContextId'] = executionContextId;
      else params['objectId'] = handles[0];
      const result = await this.cdp.send<CallResult>('Runtime.callFunctionOn', params, frame.sessionId);
      if (result.exceptionDetails) {
        const description = result.exceptionDetails.exception?.description ?? result.exceptionDetails.text;
        throw pageScriptError(description);
      }
      return returnHandle ? result.result.objectId : result.result.value;
    };
    try {
      return await once();
    } catch (error) {
      if (!isContextGone(error)) throw error;
      // The frame navigated since the world was made: a fresh world has none of the old refs.
      this.worlds.delete(frame.frameId);
      return once();
    }
  }

  private world(frame: Frame): Promise<number> {
    let world = this.worlds.get(frame.frameId);
    if (!world) {
      world = this.createWorld(frame);
      this.worlds.set(frame.frameId, world);
      world.catch(() => this.worlds.delete(frame.frameId));
    }
    return world;
  }

  private async createWorld(frame: Frame): Promise<number> {
    const { executionContextId } = await this.cdp
      .send<{ executionContextId: number }>(
        'Page.createIsolatedWorld',
        { frameId: frame.frameId, worldName: WORLD_NAME, grantUniveralAccess: false },
        frame.sessionId,
      )
      .catch((error: unknown) => {
        throw new ToolError(
          'FRAME_UNREADABLE',
          `Frame f${frame.ordinal} (${frame.url}) cannot run scripts: ${messageOf(error)}`,
        );
      });
    const [installed] = await Promise.all([
      this.cdp.send<CallResult>(
        'Runtime.evaluate',
        { expression: pageLibrarySource(), contextId: executionContextId, returnByValue: true },
        frame.sessionId,
      ),
      // Only our world can reach the binding: it is added to contexts of that name, and without Runtime.enable (which
      // would replay the console) only to those that exist already, so each new top-frame world asks again.
      ...(frame.sessionId === undefined && frame.parentFrameId === undefined
        ? [PERSON_STOP_BINDING, PASSWORD_BINDING].map((name) =>
            this.cdp.send('Runtime.addBinding', { name, executionContextName: WORLD_NAME }).catch(() => undefined),
          )
        : []),
    ]);
    if (installed.exceptionDetails)
      throw new ToolError('INTERNAL', `Page library failed to install: ${installed.exceptionDetails.text}`);
    return executionContextId;
  }

  /** A world dies with its document: the next call makes a fresh one. */
  private onEvent(event: CdpEvent): void {
    if (event.method === 'Page.frameNavigated') this.worlds.delete((event.params['frame'] as { id: string }).id);
    else if (event.method === 'Page.frameDetached') this.worlds.delete(String(event.params['frameId']));
    else if (event.method === 'Inspector.detached') this.worlds.clear();
  }
}

interface CallResult {
  result: { value?: unknown; objectId?: string };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

/** Page-library functions throw `CODE: message` to report a typed failure. */
function pageScriptError(description: string): ToolError {
  const match = /([A-Z_]{4,}): (.*)/s.exec(description);
  if (match && isErrorCode(match[1])) return new ToolError(match[1], match[2]!.split('\n    at ')[0]);
  return new ToolError('INTERNAL', `Page script failed: ${description.split('\n')[0]}`);
}

function isContextGone(error: unknown): boolean {
  return (
    error instanceof CdpCommandError &&
    /Cannot find context|Execution context was destroyed|Cannot find object/i.test(error.cdpMessage)
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
