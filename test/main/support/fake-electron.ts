// A thin stand-in for the parts of Electron the main process uses (the binary cannot run here): enough state to see
// what the app asked of Electron, and emitters to play Electron's events. Used through vi.mock('electron', ...).
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

export interface SentCommand {
  method: string;
  params: unknown;
  sessionId: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** webContents.debugger: records commands and leaves each pending until the test answers it. */
export class FakeDebugger extends EventEmitter {
  attachedWith: string | undefined;
  refuseAttach: string | undefined;
  readonly commands: SentCommand[] = [];

  attach(version?: string): void {
    if (this.refuseAttach) throw new Error(this.refuseAttach);
    this.attachedWith = version;
  }

  detach(): void {
    this.attachedWith = undefined;
  }

  isAttached(): boolean {
    return this.attachedWith !== undefined;
  }

  sendCommand(method: string, params?: unknown, sessionId?: string): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.commands.push({ method, params, sessionId: sessionId ?? '', resolve, reject }),
    );
  }

  /** Electron's 'message' event: sessionId is '' for the page's own session. */
  event(method: string, params: Record<string, unknown>, sessionId = ''): void {
    this.emit('message', {}, method, params, sessionId);
  }
}

let nextContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly debugger = new FakeDebugger();
  url = '';
  title = '';
  destroyed = false;
  openHandler: ((details: Record<string, unknown>) => { action: string }) | undefined;
  readonly loads: { url: string; options: unknown }[] = [];
  readonly sent: unknown[][] = [];
  mainFrame = { url: '', parent: null };

  loadURL(url: string, options?: unknown): Promise<void> {
    this.loads.push({ url, options });
    this.url = url;
    return Promise.resolve();
  }

  getURL(): string {
    return this.url;
  }

  getTitle(): string {
    return this.title;
  }

  setWindowOpenHandler(handler: (details: Record<string, unknown>) => { action: string }): void {
    this.openHandler = handler;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  send(...args: unknown[]): void {
    this.sent.push(args);
  }

  executeJavaScript(): Promise<unknown> {
    return Promise.resolve(undefined);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('destroyed');
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static readonly all: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  visible = false;
  focused = false;
  destroyed = false;

  constructor(readonly options: Record<string, unknown> = {}) {
    super();
    FakeBrowserWindow.all.push(this);
  }

  loadURL(url: string, options?: unknown): Promise<void> {
    return this.webContents.loadURL(url, options);
  }

  show(): void {
    this.visible = true;
    this.focused = true;
  }

  showInactive(): void {
    this.visible = true;
  }

  focus(): void {
    this.focused = true;
  }

  isVisible(): boolean {
    return this.visible;
  }

  isMinimized(): boolean {
    return false;
  }

  restore(): void {}

  isDestroyed(): boolean {
    return this.destroyed;
  }

  close(): void {
    this.destroy();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.webContents.destroy();
    this.emit('closed');
  }
}

type Handler = (event: unknown, ...args: unknown[]) => unknown;

class FakeIpcMain extends EventEmitter {
  readonly handlers = new Map<string, Handler>();

  handle(channel: string, handler: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, handler);
  }

  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }

  invoke(channel: string, event: unknown, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) return Promise.reject(new Error(`no handler for ${channel}`));
    return Promise.resolve(handler(event, ...args));
  }
}

class FakeApp extends EventEmitter {
  isPackaged = false;
  requestSingleInstanceLock = vi.fn(() => true);
  quit = vi.fn();
  exit = vi.fn();
  whenReady = vi.fn(() => new Promise<void>(() => undefined));
  disableHardwareAcceleration = vi.fn();
  getAppPath = vi.fn(() => '/app');
  getPath = vi.fn((name: string) => `/tmp/fake-electron/${name}`);
  getLoginItemSettings = vi.fn(() => ({ openAtLogin: false }));
  setLoginItemSettings = vi.fn();
  dock = undefined;
}

export const Tray = vi.fn(function Tray() {
  return { setContextMenu: vi.fn(), setToolTip: vi.fn(), destroy: vi.fn() };
});

export const Notification = Object.assign(
  vi.fn(function Notification(this: EventEmitter & { show: () => void }, options: unknown) {
    const notification = Object.assign(new EventEmitter(), { options, show: vi.fn() });
    return notification;
  }),
  { isSupported: vi.fn(() => true) },
);

/** A fresh set of fakes per test file: `vi.mock('electron', () => fakeElectron())`. */
export function fakeElectron() {
  const partitions = new Map<
    string,
    EventEmitter & {
      setPermissionRequestHandler: ReturnType<typeof vi.fn>;
      setPermissionCheckHandler: ReturnType<typeof vi.fn>;
    }
  >();
  return {
    app: new FakeApp(),
    BrowserWindow: FakeBrowserWindow,
    ipcMain: new FakeIpcMain(),
    Tray,
    Notification,
    Menu: { buildFromTemplate: vi.fn((template: unknown) => ({ template })) },
    nativeImage: { createFromPath: vi.fn(() => ({ setTemplateImage: vi.fn() })) },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    net: { fetch: vi.fn() },
    session: {
      fromPartition: vi.fn((name: string) => {
        let partition = partitions.get(name);
        if (!partition) {
          partition = Object.assign(new EventEmitter(), {
            setPermissionRequestHandler: vi.fn(),
            setPermissionCheckHandler: vi.fn(),
          });
          partitions.set(name, partition);
        }
        return partition;
      }),
    },
    shell: { showItemInFolder: vi.fn(), openPath: vi.fn() },
    dialog: { showErrorBox: vi.fn(), showMessageBox: vi.fn() },
    contextBridge: { exposeInMainWorld: vi.fn() },
    ipcRenderer: new EventEmitter(),
  };
}
