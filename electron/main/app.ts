// The tray app: one instance, the core with Electron's Chromium as its fallback, hosted for MCP clients on the core
// socket, the helper launcher and the browsers' pairing host kept current, and the person's side — tray, panel, IPC,
// notifications.
import { join } from 'node:path';
import { app, dialog, nativeImage, Notification, shell } from 'electron';
import type { ClientName } from '../core/clients/client-paths.js';
import { writeHelperLauncher } from '../core/clients/helper-launcher.js';
import { parseCli } from '../core/config.js';
import { startCore } from '../core/core.js';
import { type CoreProcess, runCoreProcess } from '../core/core-process.js';
import { CoreBusyError } from '../core/host/claim-address.js';
import { PolicyFormatError } from '../../shared/policy/format-error.js';
import { type AppPaths, extensionDir, iconPath, panelCandidates, preloadPath } from './app-paths.js';
import { connectClient } from './connect-client.js';
import { electronFallback } from './electron-fallback/electron-fallback.js';
import { FALLBACK_PARTITION } from './electron-fallback/fallback-window.js';
import { appCommand, HELPER_FLAG } from './helper-mode.js';
import { setupIpc } from './ipc.js';
import { log, logFilePath } from './log.js';
import { type MenuAction, trayState } from './menu-model.js';
import { installNativeHost } from './native-host-install.js';
import { setupNotifications } from './notifications.js';
import { findPanelRoot, PANEL_ORIGIN, PANEL_URL, registerPanelScheme, setupPanelProtocol } from './panel-protocol.js';
import { readSettings, settingsFile, writeSettings } from './settings.js';
import { launchedByPerson, setupSingleInstance } from './single-instance.js';
import { setupTray } from './tray.js';
import { type PanelWindowOptions, showPanel } from './windows.js';

// A hung close must not keep a quitting app alive.
const QUIT_DEADLINE_MS = 3_000;

/** Screens of the panel a tray item opens (read by the panel from `#screen=`). */
const SCREENS = { pair: 'connection', sites: 'sites', needs: 'needs' } as const;

export function runApp(paths: AppPaths): void {
  // Both must happen before `ready`.
  registerPanelScheme();
  let openPanel: (screen?: string) => void = () => undefined;
  const secondLaunch = (argv: string[]): void => {
    if (launchedByPerson(argv)) openPanel();
  };
  if (!setupSingleInstance(secondLaunch)) return;
  // The tray app lives on with no window open; only Quit ends it.
  app.on('window-all-closed', () => undefined);
  // One handler for every way start-up fails (a rejection inside `start` too), so the person always hears why.
  app
    .whenReady()
    .then(() => start(paths))
    .then(
      (open) => {
        openPanel = open;
      },
      (error: unknown) =>
        fail(
          error instanceof StartRefused
            ? error.message
            : `Chrome MCP could not start: ${error instanceof Error ? error.message : String(error)}`,
        ),
    );
}

/** A start-up the person can fix: its message is the whole dialog. */
class StartRefused extends Error {}

async function start(paths: AppPaths): Promise<(screen?: string) => void> {
  app.dock?.hide();
  const outcome = parseCli([], process.env, process.platform);
  if (outcome.kind !== 'run') throw new Error(outcome.stderr ?? 'bad configuration');
  const { config } = outcome;
  const settingsPath = settingsFile(app.getPath('userData'));
  let settings = readSettings(settingsPath);

  // The shell claims the socket first, as for `chrome-mcp serve`: an app that is going to be refused must not start a
  // core, which would take the bridge port and write over the serving core's control.json and bridge.json.
  let running: CoreProcess;
  try {
    running = await runCoreProcess({
      config,
      log,
      hostSessions: true,
      start: () =>
        startCore(config, log, {
          fallback: electronFallback({
            showWindows: () => settings.showBrowser,
            profileDir: join(app.getPath('userData'), 'Partitions', FALLBACK_PARTITION.replace(/^persist:/, '')),
          }),
          extensionDir: extensionDir(paths),
        }),
      // Quit: Electron must not go on to close the app before the core is closed (app.exit does not come back here).
      stopOn: [
        (stop) =>
          app.on('before-quit', (event) => {
            event.preventDefault();
            stop('quit');
          }),
      ],
      deadlineMs: QUIT_DEADLINE_MS,
      deadlineCode: () => 0,
      exit: (code) => app.exit(code),
    });
  } catch (error) {
    if (error instanceof CoreBusyError)
      throw new StartRefused(
        `Another Chrome MCP already serves ${config.dataDir} (perhaps \`chrome-mcp serve\`). Stop it, then start the app again.`,
      );
    if (error instanceof PolicyFormatError)
      throw new StartRefused(
        `${config.policyFile}: ${error.message}\n\nFix the file (or remove it) and start Chrome MCP again.`,
      );
    throw error;
  }
  const { core } = running;
  const command = appCommand(process.execPath, paths.appPath, paths.isPackaged);
  let launcher: string | undefined;
  try {
    launcher = writeHelperLauncher(config.dataDir, [...command, HELPER_FLAG]);
  } catch (error) {
    log(`could not write the helper launcher: ${error instanceof Error ? error.message : String(error)}`);
  }
  // After the claim, as the launcher: only the app that serves this data dir points the browsers' host at itself.
  const nativeHostFailed = !installNativeHost({ dataDir: config.dataDir, command, log });

  // Forge's dev server under `electron-forge start`; the built files on app://panel everywhere else.
  const devUrl =
    !paths.isPackaged && typeof PANEL_VITE_DEV_SERVER_URL === 'string' ? PANEL_VITE_DEV_SERVER_URL : undefined;
  const panelRoot = findPanelRoot(panelCandidates(paths));
  if (!devUrl && !panelRoot)
    log(`the panel is not built (looked in ${panelCandidates(paths).join(', ')}): run npm run build:renderer`);
  setupPanelProtocol(panelRoot);
  const panelOrigin = devUrl ? new URL(devUrl).origin : PANEL_ORIGIN;
  const panel: PanelWindowOptions = {
    preload: preloadPath(paths),
    url: devUrl ?? PANEL_URL,
    onLoadError: (message) => log(`panel did not load: ${message}`),
  };
  const openPanel = (screen?: string): void =>
    void showPanel(panel, screen === undefined ? undefined : `screen=${screen}`);
  const stopIpc = setupIpc({ hub: core.control, panelOrigin, log });
  const stopNotifications = setupNotifications(
    (listener) => core.control.subscribe(listener),
    () => openPanel(SCREENS.needs),
  );

  const loginItem = process.platform === 'linux' ? undefined : () => app.getLoginItemSettings().openAtLogin;
  const notify = (title: string, body: string): void => {
    if (Notification.isSupported()) new Notification({ title, body }).show();
    else void dialog.showMessageBox({ message: title, detail: body });
  };
  const act = (action: MenuAction): void => {
    switch (action.kind) {
      case 'pair':
        return openPanel(SCREENS.pair);
      case 'panel':
        return openPanel();
      case 'sites':
        return openPanel(SCREENS.sites);
      case 'stop':
        return void core.control
          .call('stop', { message: 'The person stopped the agent from the tray menu.' })
          .then(() => tray.refresh());
      case 'resume':
        return void core.control.call('resume', {}).then(() => tray.refresh());
      case 'connect':
        return void connect(action.client);
      case 'login':
        app.setLoginItemSettings({ openAtLogin: action.enabled });
        return void tray.refresh();
      case 'show-browser':
        settings = { ...settings, showBrowser: action.enabled };
        writeSettings(settingsPath, settings);
        return void tray.refresh();
      case 'logs':
        return shell.showItemInFolder(logFilePath());
      case 'quit':
        return app.quit();
    }
  };
  const connect = async (client: ClientName): Promise<void> => {
    if (!launcher) return notify('Could not connect', 'The helper launcher could not be written; see the log.');
    const outcome = await connectClient(client, launcher);
    log(`${outcome.title}: ${outcome.body}`);
    notify(outcome.title, outcome.body);
  };

  const trayIcon = nativeImage.createFromPath(
    iconPath(paths, process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'),
  );
  if (process.platform === 'darwin') trayIcon.setTemplateImage(true);
  const tray = setupTray({
    icon: trayIcon,
    state: async () =>
      trayState({
        report: await core.status(),
        control: await core.control.status(),
        openAtLogin: loginItem?.(),
        showBrowser: settings.showBrowser,
        nativeHostFailed,
      }),
    onAction: act,
    onChange: (refresh) => core.control.subscribe(refresh),
    log,
  });

  running.closeFirst(() => {
    tray.dispose();
    stopNotifications();
    stopIpc();
  });

  log(`ready: data in ${config.dataDir}, helper launcher ${launcher ?? 'not written'}`);
  if (launchedByPerson(process.argv) && (await core.status()).extension.pairing === 'none') openPanel(SCREENS.pair);
  return openPanel;
}

function fail(message: string): void {
  log(message);
  dialog.showErrorBox('Chrome MCP', message);
  app.exit(1);
}
