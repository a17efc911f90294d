// Stop (with an optional message the agent gets back from every call) and Resume.
import { useState } from 'react';
import { useAction } from '../live/use-action.js';
import { useLive } from '../live/use-live.js';
import { usePanel } from '../live/panel-context.js';
import { Card, clock, Problem } from '../parts.js';

export function StopControls() {
  const { client } = usePanel();
  const status = useLive((c) => c.call('status'), ['stop', 'resume']);
  const action = useAction();
  const [message, setMessage] = useState('');
  const stopped = status.value?.stopped;
  if (stopped) {
    return (
      <Card className="stopped" title="The agent is stopped">
        <p>
          Since {clock(stopped.since)}: <q>{stopped.message}</q>
        </p>
        <p className="quiet">Every call it makes gets this message back until you resume.</p>
        <button
          type="button"
          className="primary"
          disabled={action.busy}
          onClick={() => void action.run(async () => status.set(await client.call('resume')))}
        >
          Resume
        </button>
        <Problem text={action.error} />
      </Card>
    );
  }
  return (
    <Card title="Stop the agent">
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          const note = message.trim();
          void action.run(async () => {
            status.set(await client.call('stop', note ? { message: note } : {}));
            setMessage('');
          });
        }}
      >
        <input
          aria-label="Stop message"
          placeholder="Why (optional): the agent reads this"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
        />
        <button type="submit" className="danger" disabled={action.busy || !status.value}>
          Stop
        </button>
      </form>
      <p className="quiet">Esc here, or in the driven tab, also stops.</p>
      <Problem text={action.error ?? status.error} />
    </Card>
  );
}
