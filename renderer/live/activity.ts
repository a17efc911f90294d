// The activity stream as React state: the latest events from `activity.list`, then live ones from `events`, picked up
// again from the last seq after a dropped stream so nothing is missed or shown twice.
import { useEffect, useState } from 'react';
import type { ActivityEvent } from '../../shared/control/activity.js';
import type { ControlClient } from '../../shared/control/client.js';
import { messageOf } from './message.js';

export interface ActivityState {
  events: ActivityEvent[];
  /** The stream is open; while false, the panel shows why and keeps retrying. */
  online: boolean;
  error?: string;
}

/** Enough for a session's glance back; the audit log has the rest. */
const KEEP = 500;
const RETRY_MS = 2_000;

export function useActivity(client: ControlClient): ActivityState {
  const [state, setState] = useState<ActivityState>({ events: [], online: false });
  useEffect(() => {
    const abort = new AbortController();
    const append = (events: ActivityEvent[]) =>
      setState((old) => ({ online: true, events: [...old.events, ...events].slice(-KEEP) }));
    void (async () => {
      let last: number | undefined;
      while (!abort.signal.aborted) {
        try {
          if (last === undefined) {
            const { events, next } = await client.call('activity.list', { limit: 200 });
            // An effect run that was cleaned up meanwhile (StrictMode runs it twice) must not add what it fetched.
            if (abort.signal.aborted) return;
            last = next;
            append(events);
          }
          for await (const event of client.events(last, abort.signal)) {
            last = event.seq;
            append([event]);
          }
        } catch (error) {
          if (abort.signal.aborted) return;
          setState((old) => ({ ...old, online: false, error: messageOf(error) }));
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    })();
    return () => abort.abort();
  }, [client]);
  return state;
}
