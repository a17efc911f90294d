// Every step as it happens, newest first: each call with the element it aimed at and what became of it, and the
// person's and agent's other moves (questions, held acts, plan, stop) in between.
import type { ActivityEvent, CallRecord } from '../../shared/control/activity.js';
import { usePanel } from '../live/panel-context.js';
import { Card, clock } from '../parts.js';

const SHOWN = 200;

export function StepStream() {
  const { activity } = usePanel();
  const events = activity.events.slice(-SHOWN).reverse();
  return (
    <Card title="Steps">
      {events.length === 0 ? <p className="quiet">Nothing yet: the agent's calls appear here as they happen.</p> : null}
      <ol className="steps" aria-label="Steps">
        {events.map((event) => (
          <li key={event.seq} className={`step step-${event.type}`}>
            <time>{clock(event.time)}</time>
            {event.type === 'call' ? <CallStep call={event} /> : <span className="note">{describe(event)}</span>}
          </li>
        ))}
      </ol>
    </Card>
  );
}

function CallStep({ call }: { call: CallRecord }) {
  // Call events carry no screenshot yet (CallRecordSchema has none): when one does, its data: URL renders here as an
  // an <img>, which the panel's CSP already allows (img-src data:).
  return (
    <span className="call">
      <span className={`decision decision-${call.decision}`}>{call.decision}</span> <strong>{call.tool}</strong>
      {call.element ? <> · <span className="element">{call.element}</span></> : null}
      {call.url ? <span className="url"> {call.url}</span> : null}
      {call.code ? <span className="quiet"> {call.code}</span> : null}
      {call.summary ? <span className="quiet"> — {call.summary}</span> : null}
      {call.ms !== undefined ? <span className="quiet"> ({call.ms} ms)</span> : null}
    </span>
  );
}

function describe(event: Exclude<ActivityEvent, { type: 'call' }>): string {
  switch (event.type) {
    case 'question': {
      const what = event.question.kind === 'site' ? `${event.question.need} on ${event.question.site}` : `"${event.question.text}"`;
      return `Question ${event.change}: ${what}${event.answer ? ` → ${event.answer}` : ''}`;
    }
    case 'held':
      return `Held act ${event.change}: ${event.act.method} ${event.act.url}`;
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
  }
}
