// One question for the person: a site the agent needs (allow once, always, deny) or the agent's own question (a reply).
import { useState } from 'react';
import {
  allowedLevel,
  SITE_GRANTS,
  type AgentQuestion,
  type Question,
  type SiteAnswer,
  type SiteQuestion,
} from '../../shared/control/question.js';
import { useAction } from '../live/use-action.js';
import { usePanel } from '../live/panel-context.js';
import { Card, clock, Problem } from '../parts.js';

type Answered = (left: Question[]) => void;

export function QuestionCard({ question, onAnswered }: { question: Question; onAnswered: Answered }) {
  return question.kind === 'site' ? (
    <SiteCard question={question} onAnswered={onAnswered} />
  ) : (
    <AgentCard question={question} onAnswered={onAnswered} />
  );
}

const ANSWERS: { answer: SiteAnswer; label: string; className?: string }[] = [
  { answer: 'once', label: 'Allow once', className: 'primary' },
  { answer: 'always', label: 'Always' },
  { answer: 'deny', label: 'Deny', className: 'danger' },
];

function SiteCard({ question, onAnswered }: { question: SiteQuestion; onAnswered: Answered }) {
  const { client } = usePanel();
  const action = useAction();
  const answer = (answer: SiteAnswer) =>
    action.run(async () => onAnswered((await client.call('questions.answer', { id: question.id, answer })).questions));
  return (
    <Card className="question" title={`The agent wants to ${SITE_GRANTS[question.need]} ${question.site}`}>
      <p className="quiet">
        {question.tool}
        {question.url ? (
          <>
            {' '}
            → <span className="url">{question.url}</span>
          </>
        ) : null}{' '}
        · asked {clock(question.asked)}
      </p>
      <p className="quiet">
        Allowing lets it {SITE_GRANTS[allowedLevel(question.need)]} the site. "Allow once" lasts until chrome-mcp stops;
        "Always" saves a rule.
      </p>
      <div className="buttons">
        {ANSWERS.map(({ answer: value, label, className }) => (
          <button
            key={value}
            type="button"
            className={className}
            disabled={action.busy}
            onClick={() => void answer(value)}
          >
            {label}
          </button>
        ))}
      </div>
      <Problem text={action.error} />
    </Card>
  );
}

function AgentCard({ question, onAnswered }: { question: AgentQuestion; onAnswered: Answered }) {
  const { client } = usePanel();
  const action = useAction();
  const [reply, setReply] = useState('');
  const send = (text: string) =>
    action.run(async () =>
      onAnswered((await client.call('questions.answer', { id: question.id, reply: text })).questions),
    );
  return (
    <Card className="question" title="The agent asks">
      <p className="asked">{question.text}</p>
      {question.choices?.length ? (
        <div className="buttons">
          {question.choices.map((choice) => (
            <button key={choice} type="button" disabled={action.busy} onClick={() => void send(choice)}>
              {choice}
            </button>
          ))}
        </div>
      ) : null}
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          if (reply.trim()) void send(reply.trim());
        }}
      >
        <input
          aria-label="Your reply"
          placeholder="Your reply"
          value={reply}
          onChange={(event) => setReply(event.target.value)}
        />
        <button type="submit" className="primary" disabled={action.busy || !reply.trim()}>
          Reply
        </button>
      </form>
      <Problem text={action.error} />
    </Card>
  );
}
