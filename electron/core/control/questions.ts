// Questions waiting for the person: sites the agent needs (deduplicated, answered into the policy) and the agent's
// own questions (a promise the agent's tool awaits). Answered or withdrawn questions leave the list.
import { ControlError } from '../../../shared/control/errors.js';
import {
  allowedLevel,
  type AgentQuestion,
  type AnswerInput,
  type Question,
  type SiteAnswer,
  type SiteQuestion,
} from '../../../shared/control/question.js';
import { grantProblem } from '../../../shared/policy/breadth.js';
import { evaluatePolicy } from '../../../shared/policy/evaluate.js';
import { meets, RULE_LEVELS, type AccessLevel, type RuleLevel } from '../../../shared/policy/levels.js';
import { parseSitePattern, patternText, type SitePattern } from '../../../shared/policy/pattern.js';
import type { Policy } from '../../../shared/policy/policy.js';
import { ToolError } from '../../../shared/protocol/errors.js';
import type { Activity } from './activity.js';
import type { PolicyStore } from './policy-store.js';

export interface SiteAsk {
  /**
   * The page's exact origin as evaluatePolicy names it (`Denied.origin`): an answer grants that origin and nothing
   * wider. Anything else (a bare host, a public suffix) is refused with a ToolError and nobody is asked.
   */
  site: string;
  need: AccessLevel;
  tool: string;
  url?: string;
}

/** How a site question was settled, and the level the site now holds for it. */
export interface SiteDecision {
  answer: SiteAnswer;
  level: RuleLevel;
}

interface Waiter<T> {
  resolve(value: T): void;
  reject(reason: unknown): void;
}

type Pending =
  | { question: SiteQuestion; pattern: SitePattern; waiters: Set<Waiter<SiteDecision>> }
  | { question: AgentQuestion; waiter: Waiter<string> };

export class Questions {
  private readonly pending = new Map<string, Pending>();
  private lastId = 0;

  constructor(
    private readonly policy: PolicyStore,
    private readonly activity: Activity,
    private readonly now: () => number = Date.now,
  ) {
    // An answer changes the policy itself and settles what it covers; the editor's rules are settled here.
    policy.onChange((current, change) => {
      if (change.kind === 'standing') this.settleDecided(current);
    });
  }

  list(): Question[] {
    return [...this.pending.values()].map((entry) => entry.question);
  }

  count(): number {
    return this.pending.size;
  }

  /** The pending question for this site and need, asking it if none waits: a retrying agent does not pile up cards. */
  askSite(ask: SiteAsk): SiteQuestion {
    const pattern = askablePattern(ask.site);
    const site = patternText(pattern);
    const same = this.siteEntries().find(({ question }) => question.site === site && question.need === ask.need);
    if (same) return same.question;
    const question: SiteQuestion = {
      id: this.nextId(),
      kind: 'site',
      site,
      need: ask.need,
      tool: ask.tool,
      ...(ask.url === undefined ? {} : { url: ask.url }),
      asked: this.now(),
    };
    this.pending.set(question.id, { question, pattern, waiters: new Set() });
    this.activity.emit({ type: 'question', change: 'added', question });
    return question;
  }

  /** Resolves when the person answers site question `id`; rejects with the signal's reason when it aborts first. */
  waitForAnswer(id: string, signal?: AbortSignal): Promise<SiteDecision> {
    const entry = this.pending.get(id);
    if (!entry || !('waiters' in entry)) return Promise.reject(notWaiting(id));
    return settleable(signal, (waiter) => {
      entry.waiters.add(waiter);
      return () => entry.waiters.delete(waiter);
    });
  }

  /** The agent's question: resolves with the person's reply; rejects (and withdraws it) when `signal` aborts. */
  askAgent(text: string, choices?: readonly string[], signal?: AbortSignal): Promise<string> {
    const question: AgentQuestion = {
      id: this.nextId(),
      kind: 'agent',
      text,
      ...(choices ? { choices: [...choices] } : {}),
      asked: this.now(),
    };
    return settleable(signal, (waiter) => {
      this.pending.set(question.id, { question, waiter });
      this.activity.emit({ type: 'question', change: 'added', question });
      return () => this.withdraw(question.id);
    });
  }

  /** Withdraws every agent question, rejecting its asker with `reason` (the agent was stopped). */
  withdrawAgentQuestions(reason: unknown): void {
    for (const entry of [...this.pending.values()]) {
      if ('waiter' in entry) {
        this.withdraw(entry.question.id);
        entry.waiter.reject(reason);
      }
    }
  }

  answer(input: AnswerInput): void {
    const entry = this.pending.get(input.id);
    if (!entry) throw notWaiting(input.id);
    if ('waiter' in entry) {
      if (input.reply === undefined)
        throw new ControlError('BAD_ARGS', `Question "${input.id}" is the agent's: answer it with reply.`);
      this.pending.delete(input.id);
      this.activity.emit({ type: 'question', change: 'answered', question: entry.question, answer: input.reply });
      entry.waiter.resolve(input.reply);
      return;
    }
    if (input.answer === undefined)
      throw new ControlError(
        'BAD_ARGS',
        `Question "${input.id}" asks about a site: answer it with once, always or deny.`,
      );
    const { question, pattern } = entry;
    const decision: SiteDecision =
      input.answer === 'deny'
        ? { answer: 'deny', level: 'blocked' }
        : { answer: input.answer, level: input.level ?? allowedLevel(question.need) };
    const rule = { site: pattern, level: decision.level };
    if (decision.answer === 'always') this.policy.addRule(rule);
    else this.policy.grant(rule);
    // The answer also settles the site's other questions it covers: a deny every need, a grant the needs up to its level.
    const covers = (other: SiteQuestion) =>
      other.site === question.site && (decision.level === 'blocked' || meets(decision.level, other.need));
    for (const other of this.siteEntries()) {
      if (other !== entry && !covers(other.question)) continue;
      this.pending.delete(other.question.id);
      const answer = decision.answer === 'deny' ? 'deny' : `${decision.answer} (${decision.level})`;
      this.activity.emit({ type: 'question', change: 'answered', question: other.question, answer });
      for (const waiter of other.waiters) waiter.resolve(decision);
    }
  }

  /**
   * The person set a rule in the editor instead of answering: a site question the policy now decides leaves the list,
   * its waiters settled as by an "always" answer at the site's level, or a deny when the rule refuses the need.
   */
  private settleDecided(policy: Policy): void {
    for (const entry of this.siteEntries()) {
      const { question } = entry;
      // The question's own origin, not its url: a navigation's url may be the first hop of a redirect to this site.
      const verdict = evaluatePolicy(`${question.site}/`, question.need, policy);
      let decision: SiteDecision;
      if (verdict.allowed) decision = { answer: 'always', level: verdict.level as RuleLevel };
      else if ((RULE_LEVELS as readonly string[]).includes(verdict.have))
        decision = { answer: 'deny', level: verdict.have as RuleLevel };
      else continue;
      this.pending.delete(question.id);
      this.activity.emit({ type: 'question', change: 'answered', question, answer: `by a rule (${decision.level})` });
      for (const waiter of entry.waiters) waiter.resolve(decision);
    }
  }

  private siteEntries(): Extract<Pending, { waiters: unknown }>[] {
    return [...this.pending.values()].filter((entry) => 'waiters' in entry);
  }

  private withdraw(id: string): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    this.activity.emit({ type: 'question', change: 'withdrawn', question: entry.question });
  }

  private nextId(): string {
    return `q${++this.lastId}`;
  }
}

/**
 * The origin pattern a site question asks about. A question that no answer could grant (a public suffix such as
 * `https://github.io`) is not asked at all: the call is refused and says why.
 */
function askablePattern(origin: string): SitePattern {
  let pattern: SitePattern;
  try {
    pattern = parseSitePattern(origin);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ToolError('INTERNAL', `A site question must name an origin: ${why}`);
  }
  if (pattern.kind !== 'origin') {
    throw new ToolError('INTERNAL', `A site question must name an origin, not "${origin}".`);
  }
  const broad = grantProblem(pattern, 'read');
  if (broad) {
    throw new ToolError('POLICY_DENIED', `No answer could allow this site: ${broad}.`, {
      next: 'Do not retry on this site. Use another site, or tell the person what you were trying to do.',
      data: { reason: 'too_broad', site: patternText(pattern) },
    });
  }
  return pattern;
}

function notWaiting(id: string): ControlError {
  return new ControlError(
    'NOT_FOUND',
    `No question "${id}" is waiting: it was answered or withdrawn already, or never asked. Call questions.list for the ones that wait.`,
  );
}

/** A promise `register` hands a waiter to, which rejects with the signal's reason on abort and then unregisters. */
function settleable<T>(signal: AbortSignal | undefined, register: (waiter: Waiter<T>) => () => void): Promise<T> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      unregister();
      reject(signal?.reason);
    };
    const unregister = register({
      resolve: (value) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      },
      reject: (reason) => {
        signal?.removeEventListener('abort', onAbort);
        reject(reason);
      },
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
