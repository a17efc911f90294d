// The control API over Electron IPC: calls from the app's own panel only, each name and input checked against the
// declaration before the hub sees it, and the activity stream pushed to subscribed panels.
import { ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { z } from 'zod';
import type { ActivityEvent } from '../../shared/control/activity.js';
import { CONTROL_API, type ControlCall, type ControlOutput, isControlCall } from '../../shared/control/api.js';
import { ControlError, inputError } from '../../shared/control/errors.js';
import { CONTROL_IPC } from '../../shared/control/ipc.js';
import type { IpcReply } from '../preload/reply.js';
import type { Log } from '../core/log.js';
import { isPanelUrl } from './panel-protocol.js';

/** What IPC needs of the core's control hub. */
export interface ControlTarget {
  call<N extends ControlCall>(name: N, input: unknown): Promise<ControlOutput<N>>;
  subscribe(listener: (event: ActivityEvent) => void, since?: number): () => void;
}

export interface IpcOptions {
  hub: ControlTarget;
  /** The panel's origin (app://panel, or the dev server's under `electron-forge start`). */
  panelOrigin: string;
  log: Log;
}

const SubscribeSchema = z.tuple([z.string().min(1).max(64), z.number().int().min(0).optional()]);
const UnsubscribeSchema = z.tuple([z.string().min(1).max(64)]);

type SenderEvent = Pick<IpcMainInvokeEvent | IpcMainEvent, 'senderFrame' | 'sender'>;

/**
 * The sender is the panel: the top frame of its window, showing the panel's origin. A frame that navigated away, an
 * iframe inside the panel, or any other window (the fallback browser's tabs have no preload, but defence in depth) is not.
 */
export function isPanelSender(event: SenderEvent, panelOrigin: string): boolean {
  const frame = event.senderFrame;
  if (!frame) return false;
  if (frame.parent !== null) return false;
  return isPanelUrl(frame.url, panelOrigin);
}

/** One call from the panel, as its reply: the hub's output, or a refusal with its code. */
export async function handleCall(hub: ControlTarget, name: unknown, input: unknown): Promise<IpcReply> {
  try {
    if (typeof name !== 'string' || !isControlCall(name))
      throw new ControlError('UNKNOWN_CALL', `No control call "${String(name).slice(0, 100)}".`);
    const parsed = CONTROL_API[name].input.safeParse(input ?? {});
    if (!parsed.success) throw inputError(name, parsed.error);
    return { ok: true, value: await hub.call(name, parsed.data) };
  } catch (error) {
    if (error instanceof ControlError) return { ok: false, error: { code: error.code, message: error.message } };
    return { ok: false, error: { code: 'INTERNAL', message: 'The control call failed inside the app; see its log.' } };
  }
}

/** Registers the handlers; returns their removal (for tests and a clean quit). */
export function setupIpc({ hub, panelOrigin, log }: IpcOptions): () => void {
  const subscriptions = new Map<WebContents, Map<string, () => void>>();

  const refuse = (event: SenderEvent, channel: string): IpcReply => {
    log(`refused ${channel} from ${event.senderFrame?.url ?? 'a closed frame'}`);
    return { ok: false, error: { code: 'FORBIDDEN', message: 'Only the Chrome MCP panel may use the control API.' } };
  };

  const dropAll = (contents: WebContents): void => {
    for (const stop of subscriptions.get(contents)?.values() ?? []) stop();
    subscriptions.delete(contents);
  };

  const subscriptionsOf = (contents: WebContents): Map<string, () => void> => {
    let mine = subscriptions.get(contents);
    if (!mine) {
      mine = new Map();
      subscriptions.set(contents, mine);
      // A reload or a closed panel leaves no listener behind.
      contents.once('destroyed', () => dropAll(contents));
      contents.on('did-start-navigation', (details) => {
        if (details.isMainFrame && !details.isSameDocument) dropAll(contents);
      });
    }
    return mine;
  };

  ipcMain.handle(CONTROL_IPC.call, async (event, name: unknown, input: unknown): Promise<IpcReply> => {
    if (!isPanelSender(event, panelOrigin)) return refuse(event, CONTROL_IPC.call);
    const reply = await handleCall(hub, name, input);
    if (!reply.ok && reply.error.code === 'INTERNAL')
      log(`control call ${String(name).slice(0, 100)} failed inside the app`);
    return reply;
  });

  ipcMain.on(CONTROL_IPC.subscribe, (event, ...args: unknown[]) => {
    if (!isPanelSender(event, panelOrigin)) return void refuse(event, CONTROL_IPC.subscribe);
    const parsed = SubscribeSchema.safeParse(args);
    if (!parsed.success) return;
    const [id, since] = parsed.data;
    const contents = event.sender;
    const mine = subscriptionsOf(contents);
    mine.get(id)?.();
    const stop = hub.subscribe((activity) => {
      if (!contents.isDestroyed()) contents.send(CONTROL_IPC.event, id, activity);
    }, since);
    mine.set(id, stop);
  });

  ipcMain.on(CONTROL_IPC.unsubscribe, (event, ...args: unknown[]) => {
    if (!isPanelSender(event, panelOrigin)) return void refuse(event, CONTROL_IPC.unsubscribe);
    const parsed = UnsubscribeSchema.safeParse(args);
    if (!parsed.success) return;
    const mine = subscriptions.get(event.sender);
    mine?.get(parsed.data[0])?.();
    mine?.delete(parsed.data[0]);
  });

  return () => {
    ipcMain.removeHandler(CONTROL_IPC.call);
    ipcMain.removeAllListeners(CONTROL_IPC.subscribe);
    ipcMain.removeAllListeners(CONTROL_IPC.unsubscribe);
    for (const contents of [...subscriptions.keys()]) dropAll(contents);
  };
}
