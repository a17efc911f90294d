// Every step as it happens, newest first: each call with the element it aimed at and what became of it, and the
// person's and agent's other moves (questions, held acts, plan, stop) in between.
import type { ActivityEvent, CallEvent } from '../../shared/control/activity.js';
import { SHOTS_KEPT } from '../../shared/control/api.js';
import { usePanel } from '../live/panel-context.js';
import { Card, clock } from '../parts.js';
import { SHOT_GONE, ShotThumb } from './shot-thumb.js';

const SHOWN = 200;

export function StepStream() {
  const { activity } = usePanel();
  const events = activity.events.slice(-SHOWN).reverse();
  // The core keeps the images of its newest SHOTS_KEPT calls only: older steps do not ask for theirs, and the panel
  // holds no more pictures than the core does.
  const kept = new Set(
    activity.events.flatMap((event) => (event.type === 'call' && event.shot ? [event.id] : [])).slice(-SHOTS_KEPT),
  );
  return (
    <Card title="Steps">
      {events.length === 0 ? <p className="quiet">Nothing yet: the agent's calls appear here as they happen.</p> : null}
      <ol className="steps" aria-label="Steps">
        {events.map((event) => (
          <li key={event.seq} className={`step step-${event.type}`}>
            <time>{clock(event.time)}</time>
            {event.type === 'call' ? (
              <CallStep call={event} kept={kept.has(event.id)} />
            ) : (
              <span className="note">{describe(event)}</span>
            )}
          </li>
        ))}
      </ol>
    </Card>
  );
}

function CallStep({ call, kept }: { call: CallEvent; kept: boolean }) {
  const shotLabel = `Screenshot from the ${call.tool} step at ${clock(call.time)}${call.element ? ` (${call.element})` : ''}`;
  return (
    <span className="call">
      <span className={`decision decision-${call.decision}`}>{call.decision}</span> <strong>{call.tool}</strong>
      {call.element ? (
        <>
          {' '}
          · <span className="element">{call.element}</span>
        </>
      ) : null}
      {call.url ? <span className="url"> {call.url}</span> : null}
      {call.code ? <span className="quiet"> {call.code}</span> : null}
      {call.summary ? <span className="quiet"> — {call.summary}</span> : null}
      {call.ms !== undefined ? <span className="quiet"> ({call.ms} ms)</span> : null}
      {call.shot ? (
        kept ? (
          <ShotThumb id={call.id} label={shotLabel} />
        ) : (
          <span className="quiet"> ({SHOT_GONE})</span>
        )
      ) : null}
    </span>
  );
}

function describe(event: Exclude<ActivityEvent, { type: 'call' }>): string {
  switch (event.type) {
    case 'question': {
      const what =
        event.question.kind === 'site'
          ? `${event.question.need} on ${event.question.site}`
          : `"${event.question.text}"`;
      return `Question ${event.change}: ${what}${event.answer ? ` → ${event.answer}` : ''}`;
    }
    case 'held':
      return `Held act ${event.change}: ${event.act.method} ${event.act.url}${event.why ? ` (${event.why})` : ''}`;
    case 'plan':
      return `Plan ${event.change} (${event.plan.steps.length} steps)`;
    case 'interjection':
      return `Message ${event.change}: "${event.message}"`;
    case 'stop':
      return `Stopped: ${event.message}`;
    case 'resume':
      return 'Resumed';
    case 'policy':
      return `Policy changed (${event.change})${event.rule ? `: ${event.rule.site} ${event.rule.level}` : ''}`;
    case 'pairing':
      return `Extension ${event.change}${event.chrome ? ` (Chrome ${event.chrome})` : ''}`;
    case 'client':
      return `MCP client ${event.change}: ${event.client.name}`;
  }
}
