// A risky act held unsent: what it would send, where, and why it was held; the person sends it as shown or not at all.
import type { HeldAct } from '../../shared/control/held.js';
import { useAction } from '../live/use-action.js';
import { usePanel } from '../live/panel-context.js';
import { Card, clock, Problem } from '../parts.js';

export function HeldCard({ act, onDecided }: { act: HeldAct; onDecided: (left: HeldAct[]) => void }) {
  const { client } = usePanel();
  const action = useAction();
  const decide = (release: boolean) =>
    action.run(async () => {
      // A `gone` outcome (the page changed first) shows in the oversight stream; here the card just leaves.
      onDecided((await client.call('held.decide', { id: act.id, release })).held);
    });
  return (
    <Card className="held" title={`Held: the agent's ${act.tool} would send this to ${act.site}`}>
      <dl>
        <dt>Request</dt>
        <dd>
          <code>{act.method}</code> <span className="url">{act.url}</span>
        </dd>
        <dt>Fields</dt>
        <dd className="fields">{act.summary || '(nothing)'}</dd>
        <dt>Why held</dt>
        <dd>{act.why}</dd>
      </dl>
      <p className="quiet">
        Held at {clock(act.held)} · {act.id}
      </p>
      <div className="buttons">
        <button type="button" className="primary" disabled={action.busy} onClick={() => void decide(true)}>
          Send
        </button>
        <button type="button" className="danger" disabled={action.busy} onClick={() => void decide(false)}>
          Do not send
        </button>
      </div>
      <Problem text={action.error} />
    </Card>
  );
}
