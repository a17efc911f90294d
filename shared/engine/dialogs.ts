// A tab's JavaScript dialogs (alert, confirm, prompt, beforeunload): the one open, whose it is to answer, the calls it
// interrupted and its answer. A dialog stops its renderer: measured on Chromium 156, every command that needs the page
// (Runtime.*, Page.getFrameTree, a screenshot, the input event that opened it) waits until it closes, so each call on
// the tab races it instead of waiting for it.
import type { Cdp, CdpEvent } from './cdp.js';
import { withDeadline } from './deadline.js';
import { CdpCommandError } from './cdp.js';
import { ToolError, toToolError } from '../protocol/errors.js';
import type { OperationResult } from '../protocol/operations.js';
import type { SavedDialog } from './session-state.js';

export type DialogKind = 'alert' | 'confirm' | 'prompt' | 'beforeunload';

export interface Dialog {
  kind: DialogKind;
  message: string;
  defaultPrompt: string;
  /** The document that opened it; an iframe's for a dialog from a frame. */
  url: string;
  inFrame: boolean;
  /** The agent's when a call on the tab was running or an agent drives the tab; else the person's (their Chrome). */
  owner: 'agent' | 'person';
  /** Opened while no call ran on the tab (the page's timer, its own script): named at the tab's next call. */
  unprompted: boolean;
  /** Open before the engine attached: Chrome tells it neither the dialog's kind nor its words (see `heldAtAttach`). */
  unseen?: true;
  /** An unseen one whose kind and words an earlier run of the host saw. */
  known?: boolean;
}

/** A call a dialog cut short: it runs on once the dialog is answered, and the answer reports what it went on to do. */
interface Interrupted {
  tool: string;
  work: Promise<OperationResult>;
}

// After an answer, the interrupted call finishes its own way (a click lets its navigation commit, within 5 s); past
// this the answer says it is still going on rather than wait.
const GOES_ON_MS = 15_000;
// Chrome shows its own words for a beforeunload guard; the page's are ignored.
const LEAVE_SITE = 'Leave site? Changes you made may not be saved.';

export class DialogState {
  private shown: Dialog | undefined;
  /** Calls running on the tab now; a dialog opening meanwhile is theirs. */
  private running = 0;
  private readonly waiters = new Set<(dialog: Dialog) => void>();
  private interrupted: Interrupted[] = [];
  /** Navigations in flight that answer a beforeunload guard by leaving (the agent asked to go). */
  private leaving = 0;
  private leftPast: Dialog | undefined;
  /** An unprompted dialog the agent has not been told of yet. */
  private unreported: Dialog | undefined;
  private note: string | undefined;
  private readonly unsubscribe: () => void;
  /** Told when the open dialog changes, so the session can keep it across a restart of its host. */
  onChange: () => void = () => undefined;

  /**
   * `agentDrives`: whether an agent drives the tab, asked when a dialog opens while no call runs; in the person's
   * Chrome a dialog on any other tab is theirs. `isMainFrame` tells a frame's dialog from the top document's.
   */
  constructor(
    private readonly cdp: Cdp,
    private readonly agentDrives: () => boolean,
    private readonly isMainFrame: (frameId: string) => boolean,
  ) {
    this.unsubscribe = cdp.on((event) => this.onEvent(event));
  }

  dispose(): void {
    this.unsubscribe();
  }

  /** The dialog open now, if any. */
  get open(): Dialog | undefined {
    return this.shown;
  }

  /**
   * `work`, unless a dialog opens first: then the call answers at once that it did, and `work` runs on, its outcome
   * reported by the answer. A dialog's own command (the click's mouse release) stays pending until the dialog closes.
   */
  async race(tool: string, work: Promise<OperationResult>): Promise<OperationResult> {
    this.running++;
    let stop = (): void => undefined;
    const opened = new Promise<Dialog>((resolve) => {
      this.waiters.add(resolve);
      stop = () => void this.waiters.delete(resolve);
    });
    try {
      const first = await Promise.race([work.then((result) => ({ result })), opened.then((dialog) => ({ dialog }))]);
      if ('result' in first) return first.result;
      work.catch(() => undefined);
      const entry = { tool, work };
      this.interrupted.push(entry);
      // One the page closed itself (a navigation, a closed tab) is nobody's to report any more once it ended.
      void work.finally(() => this.forget(entry)).catch(() => undefined);
      const text = `→ dialog ${describe(first.dialog)} (answer with dialog)`;
      return { text, data: { dialog: dataOf(first.dialog) } };
    } finally {
      stop();
      this.running--;
    }
  }

  /**
   * The tab did not answer at attach: a dialog shown before the engine attached holds it. Measured, Chromium 156:
   * Chrome sends a debugger that attaches later no Page.javascriptDialogOpening, Page.handleJavaScriptDialog says no
   * dialog is showing, and every renderer command (Page.enable too) waits until it closes; only a reload closes it.
   */
  heldAtAttach(known?: SavedDialog): void {
    if (this.shown) return;
    const owner = this.agentDrives() ? 'agent' : 'person';
    const dialog: Dialog = {
      kind: known?.kind ?? 'alert',
      message: known?.message ?? '',
      known: known !== undefined,
      defaultPrompt: '',
      url: '',
      inFrame: false,
      owner,
      unprompted: true,
      unseen: true,
    };
    this.shown = dialog;
    if (owner === 'agent') this.unreported = dialog;
    this.onChange();
  }

  /** The address of the page an unseen dialog holds, from the browser's side, which still answers. */
  async heldUrl(): Promise<string> {
    const { currentIndex, entries } = await this.cdp.send<{ currentIndex: number; entries: { url: string }[] }>(
      'Page.getNavigationHistory',
      {},
    );
    return entries[currentIndex]?.url ?? '';
  }

  /** The tab's document is a page that could show a dialog: an http(s) or file one, not a tab still opening. */
  async mayHoldDialog(): Promise<boolean> {
    return /^(https?|file):/.test(await this.heldUrl().catch(() => ''));
  }

  /** The tab answered after all: the unseen dialog closed (its close event may come first), or the page was slow. */
  answeredAfterAttach(): void {
    if (this.shown?.unseen) this.closed();
  }

  /** Refuses a call that needs the page while a dialog holds it: at once, naming the dialog and how to answer it. */
  refuseWhileOpen(tool: string): void {
    const dialog = this.shown;
    if (!dialog) return;
    if (this.unreported === dialog) this.unreported = undefined;
    if (dialog.owner === 'person')
      throw new ToolError(
        'PERSON_DIALOG',
        `The page shows ${describe(dialog)}, the person's to answer; ${tool} cannot run until it is closed.`,
      );
    const data = { dialog: dataOf(dialog) };
    const unprompted = dialog.unprompted && !dialog.unseen ? ', opened by the page itself' : '';
    throw new ToolError(
      'DIALOG_OPEN',
      `The page shows ${describe(dialog)}${unprompted}; ${tool} cannot run until it is answered.`,
      { next: howToAnswer(dialog), data },
    );
  }

  /** What happened to the tab's dialogs since the last call, for the top of this call's result; told once. */
  takeNote(): string | undefined {
    const note = this.note;
    this.note = undefined;
    return note;
  }

  /**
   * Answers the open dialog (`text`: a prompt's answer, else its default), then reports what the calls it interrupted
   * went on to do: their results, a send the gate held, another dialog.
   */
  async answer(accept: boolean, text: string | undefined): Promise<OperationResult> {
    const dialog = this.shown;
    if (!dialog) throw new ToolError('NO_DIALOG', 'No dialog is open on that tab.');
    if (dialog.owner === 'person')
      throw new ToolError('PERSON_DIALOG', `The page shows ${describe(dialog)}; it is the person's to answer.`);
    if (this.unreported === dialog) this.unreported = undefined;
    if (dialog.unseen) return this.reloadPast(dialog, accept);
    const promptText = dialog.kind === 'prompt' ? (text ?? dialog.defaultPrompt) : undefined;
    const waiting = this.interrupted.splice(0);
    await this.cdp
      .send('Page.handleJavaScriptDialog', { accept, ...(promptText === undefined ? {} : { promptText }) })
      .catch((error: unknown) => {
        // Closed between our look and the answer (the person answered it, the page navigated).
        if (error instanceof CdpCommandError && /no dialog is showing/i.test(error.cdpMessage))
          throw new ToolError('NO_DIALOG', `${describe(dialog)} was closed before the answer reached it.`);
        throw error;
      });
    const answered = `${accept ? 'accepted' : 'dismissed'} ${describe(dialog)}${
      accept && promptText !== undefined ? ` with ${JSON.stringify(clip(promptText, 100))}` : ''
    }`;
    const data = {
      kind: dialog.kind,
      message: dialog.message,
      accepted: accept,
      ...(accept && promptText !== undefined ? { text: promptText } : {}),
    };
    if (waiting.length === 0) return { text: answered, data };
    try {
      const next = await this.race(waiting.map((entry) => entry.tool).join(', '), goneOn(waiting));
      return { text: `${answered}\n${next.text}`, data };
    } catch (error) {
      const cause = toToolError(error);
      throw cause.reworded(`${answered}; then ${cause.message}`);
    }
  }

  /**
   * Runs a navigation the agent asked for: a beforeunload guard it meets is answered by leaving, and reported with
   * the navigation's result rather than as a dialog to answer.
   */
  async leavingPast<T>(run: () => Promise<T>): Promise<{ value: T; guard: boolean }> {
    this.leaving++;
    this.leftPast = undefined;
    try {
      const value = await run();
      return { value, guard: this.leftPast !== undefined };
    } finally {
      this.leaving--;
    }
  }

  /** Closes an unseen dialog the one way Chrome allows, a reload, which dismisses it: no OK can reach it. */
  private async reloadPast(dialog: Dialog, accept: boolean): Promise<OperationResult> {
    if (accept)
      throw new ToolError(
        'DIALOG_UNREACHABLE',
        `The page shows ${describe(dialog)}; Chrome lets no debugger press OK on it.`,
        {
          next: howToAnswer(dialog),
        },
      );
    await this.cdp.send('Page.reload', {});
    // The reload closed it (measured); its close event may come after the next call.
    if (this.shown === dialog) this.shown = undefined;
    return { text: `dismissed ${describe(dialog)}, by reloading the page`, data: { accepted: false, reloaded: true } };
  }

  private forget(entry: Interrupted): void {
    this.interrupted = this.interrupted.filter((each) => each !== entry);
  }

  private onEvent(event: CdpEvent): void {
    if (event.method === 'Page.javascriptDialogOpening') this.opened(event.params);
    else if (event.method === 'Page.javascriptDialogClosed') this.closed();
    else if (event.method === 'Inspector.detached' && event.sessionId === undefined) this.shown = undefined;
  }

  // A frame's dialog arrives on the tab's own session too, and only that session can answer it (measured, Chromium
  // 156: "Command can only be executed on top-level targets" from the frame's).
  private opened(params: Record<string, unknown>): void {
    const kind = KINDS.has(String(params['type'])) ? (String(params['type']) as DialogKind) : 'alert';
    const running = this.running > 0;
    const dialog: Dialog = {
      kind,
      message: kind === 'beforeunload' ? LEAVE_SITE : String(params['message'] ?? ''),
      defaultPrompt: String(params['defaultPrompt'] ?? ''),
      url: String(params['url'] ?? ''),
      inFrame: !this.isMainFrame(String(params['frameId'] ?? '')),
      owner: running || this.agentDrives() ? 'agent' : 'person',
      unprompted: !running,
    };
    if (kind === 'beforeunload' && this.leaving > 0) {
      this.leftPast = dialog;
      void this.cdp.send('Page.handleJavaScriptDialog', { accept: true }).catch(() => undefined);
      return;
    }
    this.shown = dialog;
    this.onChange();
    if (running) for (const waiter of [...this.waiters]) waiter(dialog);
    else if (dialog.owner === 'agent') this.unreported = dialog;
  }

  private closed(): void {
    const dialog = this.shown;
    this.shown = undefined;
    if (dialog) this.onChange();
    if (!dialog || this.unreported !== dialog) return;
    // The agent never saw it: the person answered it in Chrome, or the page went away under it.
    this.unreported = undefined;
    this.note = `(meanwhile the page showed ${describe(dialog)}; it was closed in the browser)`;
  }
}

const KINDS = new Set<string>(['alert', 'confirm', 'prompt', 'beforeunload']);

/** The interrupted calls' outcome once they ran on: each one's line, or the first one's failure. */
async function goneOn(waiting: Interrupted[]): Promise<OperationResult> {
  const lines = await Promise.all(
    waiting.map(async ({ tool, work }) => {
      const result = await withDeadline(work, GOES_ON_MS, () => ({
        text: `still going on after ${GOES_ON_MS / 1000} s; check the page with snapshot`,
      }));
      return `${tool}: ${result.text}`;
    }),
  );
  return { text: lines.join('\n') };
}

/**
 * `confirm "Delete 3 items?"`, with a prompt's default and a frame's origin when there are any; the person's own
 * dialog by its kind alone, since what it asks them is not the agent's business.
 */
export function describe(dialog: Dialog): string {
  if (dialog.unseen && !dialog.known)
    // Chrome answers nothing of the page either way: a script that keeps it busy from before attach looks the same.
    return 'a dialog that opened before Chrome MCP attached (its words cannot be read; or a script keeps the page busy)';
  if (dialog.owner === 'person') return `${dialog.kind === 'alert' ? 'an' : 'a'} ${dialog.kind} dialog`;
  const prompt = dialog.defaultPrompt ? ` (default ${JSON.stringify(clip(dialog.defaultPrompt, 100))})` : '';
  const frame = dialog.inFrame ? ` in a frame of ${originOf(dialog.url)}` : '';
  if (dialog.unseen)
    return `${dialog.kind} ${JSON.stringify(clip(dialog.message, 200))} (open since before Chrome MCP attached)`;
  return `${dialog.kind} ${JSON.stringify(clip(dialog.message, 200))}${prompt}${frame}`;
}

function howToAnswer(dialog: Dialog): string {
  if (dialog.unseen)
    return dialog.owner === 'person'
      ? 'Ask the person to answer it in Chrome.'
      : 'Call `dialog {accept: false}` to close it by reloading the page (what the page held is lost), or ask the person to answer it in Chrome.';
  if (dialog.kind === 'beforeunload') return 'Call `dialog {accept: true}` to leave the page, or `{accept: false}`.';
  if (dialog.kind === 'prompt') return 'Call `dialog {accept: true, text}` to answer it, or `{accept: false}`.';
  if (dialog.kind === 'alert') return 'Call `dialog {accept: true}` to close it.';
  return 'Call `dialog {accept: true}` (OK) or `dialog {accept: false}` (Cancel).';
}

function dataOf(dialog: Dialog): Record<string, unknown> {
  if (dialog.unseen)
    return { kind: dialog.known ? dialog.kind : 'unknown', message: dialog.message, openedBeforeAttach: true };
  return {
    kind: dialog.kind,
    message: dialog.message,
    ...(dialog.defaultPrompt ? { defaultPrompt: dialog.defaultPrompt } : {}),
    ...(dialog.inFrame ? { frame: originOf(dialog.url) } : {}),
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
