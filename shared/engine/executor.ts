// The engine's Executor over any TabHost: tab operations, page operations on the chosen tab, and batches.
import { CdpCommandError } from './cdp.js';
import { ToolError, toToolError } from '../protocol/errors.js';
import type {
  AgentContext,
  Executor,
  Operation,
  OperationContext,
  OperationResult,
  PageOperation,
  TabOperation,
} from '../protocol/operations.js';
import type { Policy } from '../policy/policy.js';
import type { ArgsOf, BatchArgs } from '../tools/args.js';
import { bindHandlers } from '../tools/bind.js';
import { toolOf, type ToolOperation } from '../tools/catalog.js';
import { mainLevelOf } from '../tools/define.js';
import { ActFlush } from './act-flush.js';
import { agentOf } from './agent-currents.js';
import { withDeadline } from './deadline.js';
import type { Send } from './egress-ledger.js';
import { runBatch } from './batch.js';
import { PAGE_OPS, type PageOp } from './operation-table.js';
import { refusedNavigationError } from './navigation-guard.js';
import { PolicyGate } from './policy-gate.js';
import { resize } from './ops/resize.js';
import { snapshot } from './ops/snapshot.js';
import { tabClose, tabNew, tabs, tabSelect, tabUse } from './ops/tabs.js';
import type { TabSessionStore } from './session-state.js';
import type { TabHost } from './tab-host.js';
import { TabSession, type TabInUse } from './tab-session.js';
import { UrlWatch } from './url-watch.js';
import { ActWindow } from './gate/act-window.js';
import { HeldActs } from './gate/held-acts.js';
import { releaseHeld } from './gate/release-held.js';

export interface EngineExecutor extends Executor {
  /** Open tabs and the current one, for `status`: the asking agent's own, or (no agent: the panel) the one used last. */
  describe(agent?: AgentContext): Promise<{ tabs: number; current: { id: string; url: string; title: string } | null }>;
  /**
   * Sets again the routes an earlier run of this host kept (its store's), attaching their tabs: call once the policy
   * in force is the one to judge them by, since a tab the policy refuses is not attached and loses them.
   */
  restoreSetups(): void;
  /**
   * Drops every page context; the tabs stay open. Answers, once settled, what the tabs held paused and failed rather
   * than let go (Chrome sends what Fetch holds once it is disabled): a caller closing the browser waits for it.
   */
  dispose(): Promise<Send[]>;
}

type TabOp = (
  session: TabSession,
  agent: AgentContext,
  args: Record<string, unknown>,
  ctx: OperationContext,
) => Promise<OperationResult>;

/** Operations no tool stands for: the core sends them on the person's behalf (see protocol/operations.ts). */
const UNTOOLED = {
  release_held: (held: HeldActs, args: Record<string, unknown>) => releaseHeld(held, args),
} satisfies Record<Exclude<Operation, ToolOperation>, unknown>;

// Each handler takes exactly its tool's arguments (shared/tools/bind.ts); they arrive parsed by that tool's schema.
const TAB_OPS: Record<TabOperation, TabOp> = bindHandlers<TabOp, 2>()({
  tabs: (session: TabSession, agent: AgentContext, _args: ArgsOf<'tabs'>) => tabs(session, agent),
  tab_use: tabUse,
  tab_new: tabNew,
  tab_select: tabSelect,
  tab_close: tabClose,
  resize: (session: TabSession, agent: AgentContext, args: ArgsOf<'resize'>) => resize(session, agent, args),
});

// Failing what the tabs hold paused takes a few browser round trips each (paused-chain.ts).
const LET_GO_MS = 5_000;

export interface EngineOptions {
  /** Names this backend session in every tab handle (e.g. "fk" → "fk.3"); a new browser session needs a new tag. */
  tag: string;
  /** Keeps the tab state across restarts of a host that can be stopped at will (the extension's worker). */
  store?: TabSessionStore;
  /** The site policy as it stands now; asked on every check, so a live edit applies to the next step. */
  policy: () => Policy;
  /** The person pressed Esc in a tab while the agent acted there (`where` names the tab): stop the agent. */
  onPersonStop?: (where: string) => void;
}

export function createEngineExecutor(host: TabHost, opts: EngineOptions): EngineExecutor {
  const gate = new PolicyGate(opts.policy);
  const session = new TabSession(host, gate, opts.tag, opts.store, opts.onPersonStop);
  const held = new HeldActs(opts.tag);

  const runOne = async (
    op: Operation,
    args: Record<string, unknown>,
    ctx: OperationContext,
  ): Promise<OperationResult> => {
    const agent = agentOf(ctx);
    if (op in TAB_OPS) return TAB_OPS[op as TabOperation](session, agent, args, ctx);
    if (op in UNTOOLED) return UNTOOLED[op as keyof typeof UNTOOLED](held, args);
    const run = PAGE_OPS[op as PageOperation] as PageOp | undefined;
    const tool = toolOf(op);
    // Only `batch` itself gets here unlisted: batch validation refuses nesting before anything runs.
    if (!run || !tool) throw new ToolError('BAD_ARGS', `${op} cannot run here.`);
    const tab = await session.use(agent, typeof args['tab'] === 'string' ? args['tab'] : undefined);
    const { dialogs } = tab.page;
    // A dialog holds the page: a call that needs it is refused at once rather than left waiting (engine/dialogs.ts).
    if (!tool.answersDialog) dialogs.refuseWhileOpen(tool.name);
    // The pill shows the person the agent at work in the page; refreshing it is a page call, made at most once a
    // second. A read of what the engine keeps does no work in the page, so it sends none (shared/tools/define.ts).
    const acted = tool.readsKept ? undefined : await tab.page.presence.acting(tool.captures === true);
    const endCall = tab.page.frames.beginCall();
    try {
      const level = mainLevelOf(tool, args);
      // A page held since attach answers no frame tree; its tab's history still names the document (dialogs.ts).
      if (level !== 'none' && dialogs.open?.unseen) tab.page.gate.require({ url: await dialogs.heldUrl() }, level);
      else if (level !== 'none') await tab.page.frames.requireMain(level);
      if (tool.answersDialog) return await run(tab.page, args, ctx);
      const act = () => runAct(op, run, tab, args, ctx, held, session);
      // An act (policy `act`) is watched for where it leads and judged for what it sends; anything else just runs.
      // Either way a dialog it opens ends the call at once, and the answer to it reports the rest.
      const work =
        tool.policy !== 'act'
          ? run(tab.page, args, ctx)
          : host.holdNewWindows
            ? host.holdNewWindows(tab.hostId, gate.current(), act)
            : act();
      const result = await dialogs.race(tool.name, work);
      return withNote([dialogs.takeNote(), session.setups.take(tab.hostId)], result);
    } catch (error) {
      // A child session (an iframe) going away says the same words; only a tab missing from the list is gone.
      if (isTargetGone(error) && !(await session.isOpen(tab.hostId))) throw session.lost(agent, tab);
      throw error;
    } finally {
      endCall();
      acted?.();
      session.remember();
    }
  };

  return {
    async run(op, args, ctx) {
      try {
        if (toolOf(op)?.runsSteps) return await runBatch(args as BatchArgs, runOne, ctx);
        return await runOne(op, args, ctx);
      } catch (error) {
        throw asToolError(error);
      }
    },
    async describe(agent) {
      const list = await (agent ? session.list(agent) : session.overview());
      const current = list.find((tab) => tab.current);
      return {
        tabs: list.length,
        current: current ? { id: current.handle, url: current.url, title: current.title } : null,
      };
    },
    restoreSetups() {
      session.restoreSetups();
    },
    dispose() {
      // Nothing held is paused in the browser (see gate/held-acts.ts): its records simply go.
      held.dispose();
      // A hung tab must not keep a closing browser open: what is known paused there was failed by then anyway.
      return withDeadline(session.dispose(), LET_GO_MS, () => []);
    },
  };
}

/**
 * Runs an act and appends ` → <url>` when it navigated the tab (after letting that navigation commit), ` → new tab
 * <id> <url>` for each tab or popup it opened (the agent may select it at once), and the new snapshot when the call asked for it (`click {snapshot: true}`), which saves the model a round trip. A send the act
 * made as the person on a site that is not trusted is held, and the act fails with HELD (see gate/act-window.ts).
 */
async function runAct(
  op: Operation,
  run: PageOp,
  tab: TabInUse,
  args: Record<string, unknown>,
  ctx: OperationContext,
  held: HeldActs,
  session: TabSession,
): Promise<OperationResult> {
  const { page } = tab;
  const watch = await UrlWatch.start(page);
  const newTabs = session.newTabs(page, tab.hostId);
  const mark = page.frames.navigation.mark();
  let window: ActWindow | undefined;
  let result: OperationResult;
  // The url watch and the act window each wait on a round trip through the renderer after the act's input: one serves
  // both (first used once `run` is over).
  const flush = new ActFlush(page.cdp);
  try {
    window = await ActWindow.open(tab, op, args, held);
    result = await run(page, args, ctx);
    const moved = await watch.settle(flush);
    await window?.finish(flush, result.text);
    const refused = page.frames.navigation.refusedSince(mark);
    // The act happened; the model must know that, and that the page it led to was not loaded.
    if (refused) throw refusedNavigationError(refused, `${result.text}, but the navigation it started`);
    if (moved) result = { ...result, text: `${result.text} → ${moved}` };
    const opened = session.claimOpened(await newTabs.settle());
    for (const each of opened) result = { ...result, text: `${result.text} → new tab ${each.handle} ${each.url}` };
  } catch (error) {
    // An act that failed after its input went out may still have had a send held: the person must get its card.
    await window?.finish(flush);
    throw error;
  } finally {
    watch.dispose();
    newTabs.dispose();
    window?.close();
  }
  if (args['snapshot'] !== true) return result;
  // The act has happened: a failing snapshot must not read as a failed click (the model would click again).
  const after = await snapshot(page, {}, ctx).catch((error: unknown) => ({
    text: `(snapshot after the act failed: ${toToolError(error).message})`,
  }));
  return { ...result, text: `${result.text}\n${after.text}` };
}

/** What happened to the tab since the last call (its dialogs, a host restart), at the top of this one's result. */
function withNote(notes: (string | undefined)[], result: OperationResult): OperationResult {
  const told = notes.filter((note) => note !== undefined);
  return told.length === 0 ? result : { ...result, text: `${told.join('\n')}\n${result.text}` };
}

/** CDP's way of saying a session no longer exists: the tab's own, or one of its out-of-process frames. */
function isTargetGone(error: unknown): boolean {
  return (
    error instanceof CdpCommandError &&
    /no (session|target) with given id|session with given id not found|target closed/i.test(error.cdpMessage)
  );
}

function asToolError(error: unknown): ToolError {
  if (error instanceof CdpCommandError) return new ToolError('CDP_ERROR', error.message);
  return toToolError(error);
}
