// Needs you: what the agent is waiting on the person for — site and agent questions, and risky acts held unsent —
// kept live from the activity stream.
import { useLive } from '../live/use-live.js';
import { Problem } from '../parts.js';
import { HeldCard } from './held-card.js';
import { QuestionCard } from './question-card.js';

export function NeedsYouScreen() {
  const questions = useLive((client) => client.call('questions.list'), ['question', 'stop']);
  const held = useLive((client) => client.call('held.list'), ['held']);
  const waiting = (questions.value?.questions.length ?? 0) + (held.value?.held.length ?? 0);
  return (
    <div className="screen">
      <h1>Needs you</h1>
      <Problem text={questions.error ?? held.error} />
      {questions.value && held.value && waiting === 0 ? <p className="lead">Nothing is waiting for you.</p> : null}
      {held.value?.held.map((act) => (
        <HeldCard key={act.id} act={act} onDecided={(left) => held.set({ held: left })} />
      ))}
      {questions.value?.questions.map((question) => (
        <QuestionCard key={question.id} question={question} onAnswered={(left) => questions.set({ questions: left })} />
      ))}
    </div>
  );
}
