// The tray menu as a pure function of the core's state: what the headline says (extension connected, the app's browser
// in use, nothing paired), which items show and which are checked. tray.ts turns it into an Electron Menu.
import { shorten } from '../../shared/control/mcp-clients.js';
import { CLIENT_NAMES, CLIENTS, type ClientName } from '../core/clients/client-paths.js';

export interface TrayState {
  /** The extension link: connected now, paired but not connected, or never paired. */
  extension: 'connected' | 'paired' | 'unpaired';
  /** The Chrome version the connected extension reported. */
  chrome?: string;
  /** The app's own browser is serving the agent (it served a call, or holds its tabs) while the extension is away. */
  fallbackInUse: boolean;
  stopped: boolean;
  /** Questions and held acts waiting for the person. */
  waiting: number;
  /** Start at login; undefined where the OS gives the app no login item (Linux). */
  openAtLogin: boolean | undefined;
  /** The person's setting: show the app's browser windows. */
  showBrowser: boolean;
  /** The app could not install the pairing host at start: the extension cannot fetch its secret by itself. */
  nativeHostFailed?: boolean;
  /** The names of the MCP clients connected now, oldest first (cleaned by the core). */
  clients: string[];
}

export type MenuAction =
  | { kind: 'pair' }
  | { kind: 'panel' }
  | { kind: 'sites' }
  | { kind: 'stop' }
  | { kind: 'resume' }
  | { kind: 'connect'; client: ClientName }
  | { kind: 'login'; enabled: boolean }
  | { kind: 'show-browser'; enabled: boolean }
  | { kind: 'logs' }
  | { kind: 'quit' };

export type MenuEntry =
  | { type: 'label'; label: string }
  | { type: 'separator' }
  | { type: 'item'; label: string; action: MenuAction }
  | { type: 'checkbox'; label: string; checked: boolean; action: MenuAction };

/** One line on where the agent's browser calls go right now. */
export function headline(state: TrayState): string {
  if (state.stopped) return 'Agent stopped';
  if (state.extension === 'connected') return `Extension connected${state.chrome ? ` (Chrome ${state.chrome})` : ''}`;
  if (state.fallbackInUse) return "Using the app's own browser";
  if (state.extension === 'unpaired') return 'Extension not paired';
  return 'Extension not connected';
}

// A menu item is one line: the panel's Oversight screen lists every client in full.
const NAMES_SHOWN = 3;
const NAME_SHOWN_MAX = 24;

/** One short line on which MCP clients are connected. */
export function clientsLine(names: readonly string[]): string {
  if (names.length === 0) return 'No MCP client connected';
  const shown = names
    .slice(0, NAMES_SHOWN)
    .map((name) => shorten(name, NAME_SHOWN_MAX))
    .join(', ');
  const more = names.length > NAMES_SHOWN ? `, +${names.length - NAMES_SHOWN} more` : '';
  return `${names.length} client${names.length === 1 ? '' : 's'} connected: ${shown}${more}`;
}

/** The tray icon's tooltip: the headline, and what waits for the person. */
export function tooltip(state: TrayState): string {
  const waiting = state.waiting ? ` — ${state.waiting} waiting for you` : '';
  return `Chrome MCP: ${headline(state)}${waiting}`;
}

export function menuModel(state: TrayState): MenuEntry[] {
  const entries: MenuEntry[] = [{ type: 'label', label: headline(state) }];
  if (state.extension !== 'connected' && state.fallbackInUse)
    entries.push({ type: 'label', label: 'Your Chrome is not being used: pair the extension to use it' });
  if (state.nativeHostFailed) entries.push({ type: 'label', label: 'Pairing host not installed: see Open logs' });
  entries.push({ type: 'label', label: clientsLine(state.clients) });
  entries.push({ type: 'separator' });
  // Pairing comes first while there is none: nothing reaches the person's Chrome before it.
  entries.push({
    type: 'item',
    label: state.extension === 'unpaired' ? 'Pair extension…' : 'Pair extension again…',
    action: { kind: 'pair' },
  });
  entries.push({
    type: 'item',
    label: state.waiting ? `Open panel (${state.waiting} waiting)` : 'Open panel',
    action: { kind: 'panel' },
  });
  entries.push({ type: 'item', label: 'Allowed sites…', action: { kind: 'sites' } });
  entries.push(
    state.stopped
      ? { type: 'item', label: 'Resume agent', action: { kind: 'resume' } }
      : { type: 'item', label: 'Stop agent', action: { kind: 'stop' } },
  );
  entries.push({ type: 'separator' });
  for (const client of CLIENT_NAMES)
    entries.push({ type: 'item', label: `Connect ${CLIENTS[client].label}`, action: { kind: 'connect', client } });
  entries.push({ type: 'separator' });
  entries.push({
    type: 'checkbox',
    label: "Show the app's browser windows",
    checked: state.showBrowser,
    action: { kind: 'show-browser', enabled: !state.showBrowser },
  });
  if (state.openAtLogin !== undefined)
    entries.push({
      type: 'checkbox',
      label: 'Start at login',
      checked: state.openAtLogin,
      action: { kind: 'login', enabled: !state.openAtLogin },
    });
  entries.push({ type: 'item', label: 'Open logs', action: { kind: 'logs' } });
  entries.push({ type: 'separator' });
  entries.push({ type: 'item', label: 'Quit Chrome MCP', action: { kind: 'quit' } });
  return entries;
}

/** The tray state from what the core reports: its `status` (the MCP tool's report) and the control hub's. */
export function trayState(input: {
  report: {
    lastCall: { backend: string } | null;
    extension: { connected: boolean; pairing: string; chrome?: string };
    browser: { launched: boolean };
  };
  control: { stopped: unknown; questions: number; held: number; clients: readonly { name: string }[] };
  openAtLogin: boolean | undefined;
  showBrowser: boolean;
  nativeHostFailed?: boolean;
}): TrayState {
  const { report, control } = input;
  const extension = report.extension.connected
    ? 'connected'
    : report.extension.pairing === 'none'
      ? 'unpaired'
      : 'paired';
  return {
    extension,
    ...(report.extension.chrome ? { chrome: report.extension.chrome } : {}),
    // In use once it served a call or holds tabs; merely being available (it always is in the app) does not count.
    fallbackInUse: !report.extension.connected && (report.lastCall?.backend === 'fallback' || report.browser.launched),
    stopped: control.stopped !== null && control.stopped !== undefined,
    waiting: control.questions + control.held,
    openAtLogin: input.openAtLogin,
    showBrowser: input.showBrowser,
    ...(input.nativeHostFailed ? { nativeHostFailed: true } : {}),
    clients: control.clients.map((client) => client.name),
  };
}
