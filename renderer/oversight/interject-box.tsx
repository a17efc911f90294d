// A message for the agent: it reads it at the top of its next tool result.
import { useState } from 'react';
import { useAction } from '../live/use-action.js';
import { useLive } from '../live/use-live.js';
import { usePanel } from '../live/panel-context.js';
import { Card, Problem } from '../parts.js';

export function InterjectBox() {
  const { client } = usePanel();
  const action = useAction();
  const [message, setMessage] = useState('');
  // Delivered messages leave the count: it follows the stream, not this box.
  const waiting = useLive((c) => c.call('status'), ['interjection']).value?.interjections;
  return (
    <Card title="Tell the agent">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const note = message.trim();
          if (!note) return;
          void action.run(async () => {
            await client.call('interject', { message: note });
            setMessage('');
          });
        }}
      >
        <textarea
          aria-label="Message for the agent"
          rows={2}
          placeholder="e.g. Use the work account"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
        />
        <div className="row">
          <button type="submit" disabled={action.busy || !message.trim()}>
            Send to the agent
          </button>
          {waiting ? <span className="quiet">{waiting} waiting for the agent's next call</span> : null}
        </div>
      </form>
      <Problem text={action.error} />
    </Card>
  );
}
