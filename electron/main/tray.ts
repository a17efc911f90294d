// The tray icon and its menu: rebuilt from menu-model.ts whenever the state it shows changes (activity events, and a
// slow poll for what has no event, like the login item).
import { Menu, Tray, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import { type MenuAction, type MenuEntry, menuModel, tooltip, type TrayState } from './menu-model.js';

export interface TrayOptions {
  icon: NativeImage;
  state: () => Promise<TrayState>;
  onAction: (action: MenuAction) => void;
  /** Calls back on every change that may move the state; returns the unsubscribe. */
  onChange: (refresh: () => void) => () => void;
  log: (line: string) => void;
}

const POLL_MS = 5_000;

/** Electron's menu template for the model: labels are disabled items, the rest call `onAction`. */
export function menuTemplate(
  entries: readonly MenuEntry[],
  onAction: (action: MenuAction) => void,
): MenuItemConstructorOptions[] {
  return entries.map((entry): MenuItemConstructorOptions => {
    switch (entry.type) {
      case 'label':
        return { label: entry.label, enabled: false };
      case 'separator':
        return { type: 'separator' };
      case 'item':
        return { label: entry.label, click: () => onAction(entry.action) };
      case 'checkbox':
        return { label: entry.label, type: 'checkbox', checked: entry.checked, click: () => onAction(entry.action) };
    }
  });
}

export function setupTray({ icon, state, onAction, onChange, log }: TrayOptions): {
  tray: Tray;
  refresh: () => Promise<void>;
  dispose: () => void;
} {
  const tray = new Tray(icon);
  let shown = '';
  const refresh = async (): Promise<void> => {
    try {
      const current = await state();
      const entries = menuModel(current);
      const key = JSON.stringify(entries);
      if (key === shown) return;
      shown = key;
      tray.setContextMenu(Menu.buildFromTemplate(menuTemplate(entries, onAction)));
      tray.setToolTip(tooltip(current));
    } catch (error) {
      log(`tray: could not read the core's state: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  void refresh();
  const stopChanges = onChange(() => void refresh());
  const timer = setInterval(() => void refresh(), POLL_MS);
  timer.unref();
  return {
    tray,
    refresh,
    dispose: () => {
      stopChanges();
      clearInterval(timer);
      tray.destroy();
    },
  };
}
