// The plan the agent posted, and the approval an ask-first agent waits for before its first act.
import { useAction } from '../live/use-action.js';
import { useLive } from '../live/use-live.js';
import { usePanel } from '../live/panel-context.js';
import { Card, clock, Problem } from '../parts.js';

export function PlanCard() {
  const { client } = usePanel();
  const plan = useLive((c) => c.call('plan.get'), ['plan']);
  const action = useAction();
  const current = plan.value?.plan;
  if (!current)
    return (
      <Card title="Plan">
        <p className="quiet">The agent has not posted a plan.</p>
      </Card>
    );
  const waiting = current.askFirst && !current.approved;
  return (
    <Card className={waiting ? 'waiting' : ''} title={`Plan · posted ${clock(current.posted)}`}>
      <ol className="plan">
        {current.steps.map((step, index) => (
          <li key={index}>{step}</li>
        ))}
      </ol>
      {waiting ? (
        <>
          <p>The agent waits for your approval before it acts.</p>
          <button
            type="button"
            className="primary"
            disabled={action.busy}
            onClick={() => void action.run(async () => plan.set(await client.call('plan.approve')))}
          >
            Approve plan
          </button>
        </>
      ) : (
        <p className="quiet">
          {current.approved ? 'Approved.' : 'Shown for your information: the agent does not wait for approval.'}
        </p>
      )}
      <Problem text={action.error ?? plan.error} />
    </Card>
  );
}
