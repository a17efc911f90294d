// The control hub: the one place the person's side meets the core. Transports (loopback HTTP, Electron IPC) carry
// `call`; the core uses the plain methods to record calls, ask questions, and honour stops and interjections.
import type { ActivityEvent, CallRecord, Shot } from '../../../shared/control/activity.js';
import {
  CONTROL_API,
  type ControlArgs,
  type ControlCall,
  type ControlOutput,
  isControlCall,
  type Status,
} from '../../../shared/control/api.js';
import { ControlError, inputError } from '../../../shared/control/errors.js';
import type { ClientChange, McpClient } from '../../../shared/control/mcp-clients.js';
import type { Plan, Stopped } from '../../../shared/control/oversight.js';
import type { HeldAct, HeldCard, HeldDecision } from '../../../shared/control/held.js';
import type { SiteQuestion } from '../../../shared/control/question.js';
import { PolicyFormatError } from '../../../shared/policy/format-error.js';
import type { Policy } from '../../../shared/policy/policy.js';
import { ruleToText } from '../../../shared/policy/transfer.js';
import { redactText } from '../../../shared/redact/text.js';
import type { Log } from '../log.js';
import { Activity, type ActivityListener } from './activity.js';
import { AuditLog } from './audit-log.js';
import { controlHandlers, type Handlers } from './handlers.js';
import { HeldActs, type HeldReleaser } from './held-acts.js';
import { Oversight, stoppedError } from './oversight.js';
import type { Pairing } from './pairing-control.js';
import type { PolicyChange, PolicyListener, PolicyStore } from './policy-store.js';
import { Questions, type SiteAsk, type SiteDecision } from './questions.js';
import { Shots } from './shots.js';

export interface ControlHubOptions {
  /** The private data dir: the audit log goes there. */
  dataDir: string;
  policy: PolicyStore;
  log: Log;
  /** Releases or rejects a held act in the backend holding it (the core routes it); without one, nothing can be held. */
  releaseHeld?: HeldReleaser;
  /** The extension's pairing and link, for the `pairing.*` calls. */
  pairing: Pairing;
  /** The core's own status (backends, the extension link, pairing), shown under `core` in `status`. */
  statusExtra?: () => Promise<Record<string, unknown>>;
  /** The MCP clients connected now (the core's AgentRegistry), listed in `status`; without it, none. */
  clients?: () => McpClient[];
  now?: () => number;
}

export class ControlHub {
  private calls = 0;
  private readonly activity: Activity;
  private readonly oversight: Oversight;
  private readonly questions: Questions;
  private readonly audit: AuditLog;
  private readonly held: HeldActs;
  private readonly shots = new Shots();
  private readonly store: PolicyStore;
  private readonly handlers: Handlers;

  constructor(private readonly options: ControlHubOptions) {
    const now = options.now ?? Date.now;
    this.store = options.policy;
    this.activity = new Activity(options.log, now);
    this.oversight = new Oversight(this.activity, now);
    this.questions = new Questions(this.store, this.activity, now);
    this.audit = new AuditLog({ dataDir: options.dataDir, log: options.log });
    this.held = new HeldActs(this.activity, options.releaseHeld ?? noBackend, now);
    this.store.onChange((_policy, change) => this.activity.emit(policyEvent(change)));
    // An agent awaiting the person's reply must not outlive a stop.
    this.oversight.onStop((stopped) => this.questions.withdrawAgentQuestions(stoppedError(stopped)));
    this.handlers = controlHandlers({
      activity: this.activity,
      audit: this.audit,
      held: this.held,
      oversight: this.oversight,
      pairing: options.pairing,
      policy: this.store,
      questions: this.questions,
      shots: this.shots,
      status: () => this.status(),
    });
  }

  /** One control call from any transport: the name and input are checked against the declaration first. */
  async call<N extends ControlCall>(name: N, input: unknown): Promise<ControlOutput<N>> {
    // Transports hand over whatever a request named; the type above is a promise only the declaration keeps.
    if (!isControlCall(name))
      throw new ControlError('UNKNOWN_CALL', `No control call "${String(name).slice(0, 100)}".`);
    const definition = CONTROL_API[name];
    const parsed = definition.input.safeParse(input ?? {});
    if (!parsed.success) throw inputError(name, parsed.error);
    const handler = this.handlers[name] as (args: ControlArgs<N>) => ControlOutput<N> | Promise<ControlOutput<N>>;
    try {
      return definition.output.parse(await handler(parsed.data as ControlArgs<N>)) as ControlOutput<N>;
    } catch (error) {
      if (error instanceof PolicyFormatError)
        throw new ControlError('BAD_ARGS', `${name}: ${error.problems.join('; ')}`);
      throw error;
    }
  }

  async status(): Promise<Status> {
    const core = await this.options.statusExtra?.();
    return { ...this.oversightStatus(), clients: this.options.clients?.() ?? [], ...(core ? { core } : {}) };
  }

  /**
   * The part of `status` an agent may see about itself: not the other clients, and not the core's report, which the
   * agent's own `status` builds for its session (the panel's names the tab any client used last).
   */
  oversightStatus(): Omit<Status, 'clients' | 'core'> {
    return {
      stopped: this.oversight.stopped(),
      plan: this.oversight.plan(),
      questions: this.questions.count(),
      interjections: this.oversight.queued(),
      held: this.held.count(),
    };
  }

  /**
   * Every tool call once it is decided: into the activity stream and the audit log, every string redacted. Ids are
   * numbered here, once for the core, so the calls of several clients' sessions never share one. The call's `image`
   * is kept aside for `activity.shot`, and the event says only that there is one.
   */
  recordCall(decided: Omit<CallRecord, 'id'>, image?: Shot): ActivityEvent {
    const call: CallRecord = { id: `c${++this.calls}`, ...decided };
    // A client names itself and a page writes URLs, element text and error details: any of them may carry a secret.
    const clean = Object.fromEntries(
      Object.entries(call).map(([key, value]) => [key, typeof value === 'string' ? redactText(value) : value]),
    ) as CallRecord;
    // Pixels of a page the agent was allowed to read: not text to redact, and kept before the event goes out, so a
    // panel that asks for it at once finds it.
    const shot = image !== undefined && this.shots.keep(call.id, image);
    const event = this.activity.emit({ type: 'call', ...clean, ...(shot ? { shot: true as const } : {}) });
    const { id: _id, summary: _summary, ...audited } = clean;
    this.audit.append({ time: new Date(event.time).toISOString(), ...audited });
    return event;
  }

  /** The extension connected or went away (the core relays the bridge's events), for the panel's pairing screen. */
  recordLink(change: 'connected' | 'disconnected', chrome: string): void {
    this.activity.emit({ type: 'pairing', change, chrome });
  }

  /** An MCP client connected or went away (the core relays its AgentRegistry), so the panel and tray list it. */
  recordClient(change: ClientChange, client: McpClient): void {
    this.activity.emit({ type: 'client', change, client });
  }

  /** Activity as it happens (the loopback event stream, the tray's panel), after replaying what followed `since`. */
  subscribe(listener: ActivityListener, since?: number): () => void {
    return this.activity.subscribe(listener, since);
  }

  policy(): Policy {
    return this.store.current();
  }

  /** Fires synchronously on every change, before the call that made it returns: push it to the extension here. */
  onPolicyChange(listener: PolicyListener): () => void {
    return this.store.onChange(listener);
  }

  /** The question for a site the policy answered `ask` for (the same pending one if it was asked already). */
  askSite(ask: SiteAsk): SiteQuestion {
    return this.questions.askSite(ask);
  }

  /** For a client that can wait (MCP elicitation): resolves when the person answers site question `id`. */
  waitForAnswer(id: string, signal?: AbortSignal): Promise<SiteDecision> {
    return this.questions.waitForAnswer(id, signal);
  }

  /** The agent's `ask`: resolves with the person's reply; rejects with STOPPED on a stop, or the signal's reason. */
  askAgentQuestion(text: string, choices?: readonly string[], signal?: AbortSignal): Promise<string> {
    const stopped = this.oversight.stopped();
    if (stopped) return Promise.reject(stoppedError(stopped));
    return this.questions.askAgent(text, choices, signal);
  }

  /** A risky act the engine holds (its HELD error's card), now waiting for the person. */
  holdAct(card: HeldCard): HeldAct {
    return this.held.add(card);
  }

  /** The person's decision on a held act, from any surface (the panel, the client's own confirmation). */
  decideHeld(id: string, release: boolean): Promise<HeldDecision> {
    return this.held.decide(id, release);
  }

  /** The backend that held `id` went away (the extension's link closed): the card goes, marked gone, saying why. */
  expireHeld(id: string, why: string): void {
    this.held.expire(id, why);
  }

  /** Interjections for the top of the agent's next tool result, each handed over once. */
  takeInterjections(): string[] {
    return this.oversight.takeInterjections();
  }

  /** Non-null while stopped: every call then fails with `stoppedError(stopped)`. */
  stopped(): Stopped | null {
    return this.oversight.stopped();
  }

  /** Aborted while stopped; a fresh one after resume, so take it per call. Its reason is the STOPPED error. */
  stopSignal(): AbortSignal {
    return this.oversight.stopSignal();
  }

  onStop(listener: (stopped: Stopped) => void): () => void {
    return this.oversight.onStop(listener);
  }

  /** Esc in the driven tab, or the tray's Stop. */
  stop(message?: string): Stopped {
    return this.oversight.stop(message);
  }

  setPlan(steps: readonly string[], askFirst: boolean): Plan {
    return this.oversight.setPlan(steps, askFirst);
  }

  plan(): Plan | null {
    return this.oversight.plan();
  }

  /** Resolves once the audit lines queued so far are written. */
  flush(): Promise<void> {
    return this.audit.flush();
  }

  /** Writes the audit lines queued so far and lets go of the file: the core awaits it on shutdown. */
  close(): Promise<void> {
    return this.audit.close();
  }
}

async function noBackend(): Promise<void> {
  throw new Error('no backend holds acts in this hub');
}

function policyEvent(change: PolicyChange): Parameters<Activity['emit']>[0] {
  return change.kind === 'rule' || change.kind === 'grant'
    ? { type: 'policy', change: change.kind, rule: ruleToText(change.rule) }
    : { type: 'policy', change: change.kind };
}
