// Esc anywhere in the panel stops the agent, as Esc in the driven tab does: the person's quickest "stop", whichever
// screen is open and wherever focus is.
import { useEffect } from 'react';
import { usePanel } from '../live/panel-context.js';

const ESC_STOP_MESSAGE = 'The person pressed Esc in the panel.';

export function useEscapeStop(stopped: boolean): void {
  const { client } = usePanel();
  useEffect(() => {
    if (stopped) return;
    const onKey = (event: KeyboardEvent): void => {
      // A held key repeats, and an input method uses Esc to cancel its own composition: neither is a stop.
      if (event.key !== 'Escape' || event.repeat || event.isComposing) return;
      // A failed call needs no word of its own here: the sidebar already says when the core cannot be reached.
      void client.call('stop', { message: ESC_STOP_MESSAGE }).catch(() => undefined);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [client, stopped]);
}
