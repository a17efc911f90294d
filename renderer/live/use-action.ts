// A button's call: busy while it runs (so a double click sends once), and the API's refusal kept to show beside it.
import { useCallback, useState } from 'react';
import { messageOf } from './message.js';

export interface Action {
  busy: boolean;
  error: string | undefined;
  /** Runs `work`; true when it succeeded. */
  run(work: () => Promise<unknown>): Promise<boolean>;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = useCallback(async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (failed) {
      setError(messageOf(failed));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}
