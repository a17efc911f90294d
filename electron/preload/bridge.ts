// `window.chromeMcp` built over an ipcRenderer-like channel: the control calls and the activity subscription, nothing
// else (no ipcRenderer, no channel names, no Electron event objects reach the page).
import type { IpcRenderer } from 'electron';
import { CONTROL_IPC, type ControlBridge } from '../../shared/control/ipc.js';
import type { IpcReply } from './reply.js';

export type RendererChannel = Pick<IpcRenderer, 'invoke' | 'send' | 'on'>;

export function createBridge(ipc: RendererChannel): ControlBridge {
  const listeners = new Map<string, (event: unknown) => void>();
  let next = 0;
  // One channel listener for every subscription; the main process addresses each by its id.
  ipc.on(CONTROL_IPC.event, (_event, id: unknown, payload: unknown) => {
    if (typeof id === 'string') listeners.get(id)?.(payload);
  });

  return {
    async call(name, input) {
      const reply = (await ipc.invoke(CONTROL_IPC.call, String(name), input)) as IpcReply;
      if (reply.ok) return reply.value;
      // A plain object crosses the context bridge whole; an Error would arrive with its message only.
      throw { code: reply.error.code, message: reply.error.message };
    },
    subscribe(since, listener) {
      const id = `s${++next}`;
      listeners.set(id, (event) => listener(event));
      ipc.send(CONTROL_IPC.subscribe, id, ...(since === undefined ? [] : [since]));
      return () => {
        if (!listeners.delete(id)) return;
        ipc.send(CONTROL_IPC.unsubscribe, id);
      };
    },
  };
}
