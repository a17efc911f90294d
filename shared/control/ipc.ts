// The control API over Electron IPC: the channel names the main process handles, and what the app's preload exposes to
// the panel as `window.chromeMcp`. Values cross as plain data; both ends validate them against CONTROL_API.

export const CONTROL_IPC = {
  /** invoke(name, input) → the call's output, or a rejected { code, message }. */
  call: 'control:call',
  /** send(since) → activity events arrive on `event` until `unsubscribe`. */
  subscribe: 'control:subscribe',
  unsubscribe: 'control:unsubscribe',
  event: 'control:event',
} as const;

/** `window.chromeMcp` in the app's panel window. */
export interface ControlBridge {
  call(name: string, input: unknown): Promise<unknown>;
  /** Activity events after `since` (omitted: from now on), as they happen; returns the unsubscribe. */
  subscribe(since: number | undefined, listener: (event: unknown) => void): () => void;
}
