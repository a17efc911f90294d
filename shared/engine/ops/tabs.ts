// Tab operations: list, reuse-or-open, open, select, close, each for the calling agent; terse lines the model can act on.
import { ToolError } from '../../protocol/errors.js';
import type { AgentContext, OperationContext, OperationResult } from '../../protocol/operations.js';
import type { TabCloseArgs, TabNewArgs, TabSelectArgs, TabUseArgs } from '../../tools/args.js';
import type { SessionTab, TabSession } from '../tab-session.js';
import { describe } from '../dialogs.js';
import { navigate, withScheme } from './navigate.js';

export async function tabs(session: TabSession, agent: AgentContext): Promise<OperationResult> {
  const list = await session.list(agent);
  if (list.length === 0) return { text: 'no tabs open', data: { tabs: [] } };
  return {
    text: list.map(line).join('\n'),
    data: {
      tabs: list.map((tab) => ({
        tab: tab.handle,
        title: tab.title,
        url: tab.url,
        current: tab.current,
        owned: tab.owned,
        active: tab.active,
        ...(tab.dialog ? { dialog: tab.dialog.kind } : {}),
      })),
    },
  };
}

/** Reuses the best matching tab (exact URL, then same origin and path prefix, then same origin) or opens one. */
export async function tabUse(
  session: TabSession,
  agent: AgentContext,
  args: TabUseArgs,
  ctx: OperationContext,
): Promise<OperationResult> {
  const wanted = parseUrl(withScheme(args.url));
  const list = await session.list(agent);
  const match = wanted ? bestMatch(list, wanted) : undefined;
  if (match) {
    const selected = await session.select(agent, match.tab.handle, args.focus ?? false);
    return {
      text: `reused ${selected.handle} (${match.how}) ${selected.url} "${clip(selected.title, 80)}"`,
      data: { tab: selected.handle, reused: true, match: match.how, url: selected.url },
    };
  }
  return openAt(session, agent, args.url, args.focus ?? false, ctx);
}

export async function tabNew(
  session: TabSession,
  agent: AgentContext,
  args: TabNewArgs,
  ctx: OperationContext,
): Promise<OperationResult> {
  if (args.url === undefined) {
    const tab = await session.open(agent, args.focus ?? false);
    return { text: `opened ${tab.handle} about:blank`, data: { tab: tab.handle, reused: false } };
  }
  return openAt(session, agent, args.url, args.focus ?? false, ctx);
}

export async function tabSelect(
  session: TabSession,
  agent: AgentContext,
  args: TabSelectArgs,
): Promise<OperationResult> {
  const tab = await session.select(agent, args.tab, args.focus ?? false);
  return { text: `current ${line(tab).trim()}`, data: { tab: tab.handle, url: tab.url } };
}

export async function tabClose(session: TabSession, agent: AgentContext, args: TabCloseArgs): Promise<OperationResult> {
  const { handle, leftGuard } = await session.close(agent, args.tab);
  const guard = leftGuard ? ` (left past its "leave site?" guard)` : '';
  return { text: `closed ${handle}${guard}`, data: { tab: handle } };
}

async function openAt(
  session: TabSession,
  agent: AgentContext,
  url: string,
  focus: boolean,
  ctx: OperationContext,
): Promise<OperationResult> {
  const tab = await session.open(agent, focus);
  try {
    // A dialog the new page opens while loading ends the call at once, as on any tab (engine/dialogs.ts).
    const landed = await tab.page.dialogs.race('navigate', navigate(tab.page, { url }, ctx));
    return { text: `opened ${tab.handle} ${landed.text}`, data: { tab: tab.handle, reused: false, ...landed.data } };
  } catch (error) {
    // The tab exists even though its page did not load: name it, so the model can retry there or close it.
    if (error instanceof ToolError) throw error.reworded(`opened ${tab.handle}, but: ${error.message}`);
    throw error;
  }
}

function line(tab: SessionTab): string {
  // A page without a title shows its URL as one; saying it twice costs tokens and tells nothing.
  const title = tab.title === tab.url ? '' : clip(tab.title, 80);
  const persons = tab.dialog?.owner === 'person' ? " (the person's)" : '';
  const dialog = tab.dialog ? ` — shows ${describe(tab.dialog)}${persons}` : '';
  return `${tab.current ? '*' : ' '}${tab.owned ? '+' : ' '} ${tab.handle} "${title}" ${clip(tab.url, 200)}${dialog}`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

type MatchKind = 'exact' | 'same path' | 'same origin';

function bestMatch(list: SessionTab[], wanted: URL): { tab: SessionTab; how: MatchKind } | undefined {
  const ranked = list
    // Reusing the tab another agent is on would have the two drive one page.
    .filter((tab) => !tab.taken)
    .map((tab) => ({ tab, how: matchKind(tab.url, wanted) }))
    .filter((entry): entry is { tab: SessionTab; how: MatchKind } => entry.how !== undefined);
  const order: MatchKind[] = ['exact', 'same path', 'same origin'];
  // Within a kind prefer the current tab, then tabs this agent opened: they are the least surprising to reuse.
  const score = (entry: { tab: SessionTab; how: MatchKind }) =>
    order.indexOf(entry.how) * 4 + (entry.tab.current ? 0 : entry.tab.owned ? 1 : 2);
  return ranked.sort((a, b) => score(a) - score(b))[0];
}

function matchKind(url: string, wanted: URL): MatchKind | undefined {
  const have = parseUrl(url);
  if (!have || have.origin !== wanted.origin || have.origin === 'null') return undefined;
  if (have.href === wanted.href) return 'exact';
  return have.pathname.startsWith(wanted.pathname) ? 'same path' : 'same origin';
}
