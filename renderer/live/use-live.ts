// A control call's answer kept fresh: loaded on mount, again whenever an activity event of the named types arrives
// (the person may act in another window, the agent adds questions), and replaceable by an action's own result.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ActivityEvent } from '../../shared/control/activity.js';
import type { ControlClient } from '../../shared/control/client.js';
import { messageOf } from './message.js';
import { usePanel } from './panel-context.js';

export interface Live<T> {
  value: T | undefined;
  error: string | undefined;
  set(value: T): void;
  reload(): void;
}

export function useLive<T>(
  load: (client: ControlClient) => Promise<T>,
  refreshOn: readonly ActivityEvent['type'][],
  everyMs?: number,
): Live<T> {
  const { client, activity } = usePanel();
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<string>();
  const [nonce, setNonce] = useState(0);
  // The loader is a fresh closure each render; what should trigger a reload is the events, not its identity.
  const loader = useRef(load);
  loader.current = load;
  const trigger = activity.events.findLast((event) => refreshOn.includes(event.type))?.seq ?? 0;
  useEffect(() => {
    let current = true;
    loader.current(client).then(
      (loaded) => current && (setValue(loaded), setError(undefined)),
      (failed: unknown) => current && setError(messageOf(failed)),
    );
    return () => void (current = false);
  }, [client, trigger, activity.online, nonce]);
  useEffect(() => {
    if (!everyMs) return;
    const timer = setInterval(() => setNonce((n) => n + 1), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  return { value, error, set: setValue, reload };
}
