// The chrome.tabs and chrome.debugger calls the host makes, as the engine takes their answers and errors.
import type { PopupJudgement } from '../../shared/engine/popup-events.js';
import type { HostTab } from '../../shared/engine/tab-host.js';
import { ToolError } from '../../shared/protocol/errors.js';
import type { KeptPopup } from './popup-record.js';

const PROTOCOL_VERSION = '1.3';

export async function attachDebugger(tabId: number): Promise<void> {
  try {
    await chrome.debugger.attach({ tabId }, PROTOCOL_VERSION);
  } catch (error) {
    throw attachError(error instanceof Error ? error.message : String(error));
  }
}

/** Why an attach failed, as the error the model can act on. */
function attachError(message: string): ToolError {
  if (/no tab with given id/i.test(message)) return new ToolError('TAB_NOT_FOUND');
  // Chrome's one-client-per-tab refusal. Chromium 156 lets DevTools and other CDP clients share a tab with us
  // (measured) and says this only of this extension's own attachment, which the start-up sweep has let go of.
  if (/already attached/i.test(message))
    return new ToolError('DEVTOOLS_OPEN', `Another debugger holds this tab: ${message}`);
  return new ToolError('CDP_ERROR', `Chrome refused to attach to this tab: ${message}`, {
    next: "Browser pages (chrome://, the Web Store, other extensions' pages) cannot be driven: use a web page tab.",
  });
}

export async function focusedWindowId(): Promise<number | undefined> {
  const window = await chrome.windows.getLastFocused({ windowTypes: ['normal'] }).catch(() => undefined);
  return window?.id;
}

export function hasId<T extends { id?: number | undefined }>(tab: T): tab is T & { id: number } {
  return tab.id !== undefined && tab.id !== chrome.tabs.TAB_ID_NONE;
}

export function hostTab(tab: chrome.tabs.Tab & { id: number }, focusedWindow: number | undefined): HostTab {
  return {
    id: String(tab.id),
    url: tab.url || tab.pendingUrl || '',
    title: tab.title ?? '',
    // Every window has an active tab; only the one in the window the person last used is in front of them.
    active: tab.active && tab.windowId === focusedWindow,
  };
}

export function tabIdOf(id: string): number {
  const tabId = Number(id);
  if (!Number.isSafeInteger(tabId)) throw new ToolError('TAB_NOT_FOUND', `No tab ${id}.`);
  return tabId;
}

/** What a kept window was judged by, as the engine takes it back. */
export function judged({ origins, scripted, whole }: KeptPopup): PopupJudgement {
  return { origins, scripted, whole };
}
