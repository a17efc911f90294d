// The control API, declared once: every call a person-facing surface makes (loopback HTTP, Electron IPC, a React
// panel), its zod input and output, and what it does. The core's handlers and the typed client derive from this.
import { z } from 'zod';
import { ActivityEventSchema, ShotSchema } from './activity.js';
import { AuditEntrySchema, AuditFilterSchema } from './audit.js';
import { HeldActSchema, HeldWhySchema, HELD_OUTCOMES } from './held.js';
import { McpClientSchema } from './mcp-clients.js';
import { MAX_MESSAGE, PlanSchema, StoppedSchema } from './oversight.js';
import { PairingCodeSchema, PairingStatusSchema } from './pairing.js';
import { PolicyEditSchema, PolicyViewSchema } from './policy-view.js';
import { AnswerInputSchema, QuestionSchema } from './question.js';

/** The activity log keeps this many events; `activity.list` never returns more. */
export const ACTIVITY_CAPACITY = 1_000;
/** The images of this many calls are kept for `activity.shot`, the newest; an older one is NOT_FOUND. */
export const SHOTS_KEPT = 20;

interface CallDefinition<Input extends z.ZodType, Output extends z.ZodType> {
  description: string;
  input: Input;
  output: Output;
}

function defineCall<Input extends z.ZodType, Output extends z.ZodType>(
  definition: CallDefinition<Input, Output>,
): CallDefinition<Input, Output> {
  return definition;
}

const none = z.strictObject({});

export const StatusSchema = z.strictObject({
  stopped: StoppedSchema.nullable(),
  plan: PlanSchema.nullable(),
  /** Questions waiting for the person. */
  questions: z.number().int(),
  /** Interjections queued for the agent's next tool result. */
  interjections: z.number().int(),
  /** Risky acts waiting for the person to release or reject them. */
  held: z.number().int(),
  /** The MCP clients connected now (each its own session, with its own current tab), oldest first. */
  clients: z.array(McpClientSchema),
  /** What the core adds: backends, the extension link, pairing. */
  core: z.record(z.string(), z.unknown()).optional(),
});

const questionList = z.strictObject({ questions: z.array(QuestionSchema) });
const planResult = z.strictObject({ plan: PlanSchema.nullable() });

export const CONTROL_API = {
  status: defineCall({
    description:
      "Whether the agent is stopped, its plan, how many questions and interjections wait, which MCP clients are connected, and the core's own status.",
    input: none,
    output: StatusSchema,
  }),
  'activity.list': defineCall({
    description:
      'Activity events after `since` (a seq), oldest first; without `since`, the latest `limit`. Pass `next` as `since` to continue.',
    input: z.strictObject({
      since: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(ACTIVITY_CAPACITY).default(200),
    }),
    output: z.strictObject({ events: z.array(ActivityEventSchema), next: z.number().int() }),
  }),
  'activity.shot': defineCall({
    description: `The image a call event flagged \`shot\` returned (base64). Only the newest ${SHOTS_KEPT} calls' images are kept: an older one is NOT_FOUND.`,
    input: z.strictObject({ id: z.string().min(1).max(100) }),
    output: ShotSchema,
  }),
  'policy.get': defineCall({
    description:
      "The standing rules, default and downloads switch, this run's grants, the blind list, and the file rules persist to.",
    input: none,
    output: PolicyViewSchema,
  }),
  'policy.set': defineCall({
    description:
      'Replaces the standing rules, default and downloads switch: applied at once (the extension too) and saved. A bad site pattern is BAD_ARGS naming rules[i].',
    input: PolicyEditSchema,
    output: PolicyViewSchema,
  }),
  'questions.list': defineCall({
    description: 'Questions waiting for the person, oldest first.',
    input: none,
    output: questionList,
  }),
  'questions.answer': defineCall({
    description:
      'Answers a site question with once / always / deny (and optionally the level to grant), or an agent question with a reply. Returns the questions still waiting.',
    input: AnswerInputSchema,
    output: questionList,
  }),
  'held.list': defineCall({
    description:
      'Risky acts held for confirmation, oldest first: what each would send (secrets masked), where, and why it was held.',
    input: none,
    output: z.strictObject({ held: z.array(HeldActSchema) }),
  }),
  'held.decide': defineCall({
    description:
      'Releases a held act (the request goes out exactly as shown, if its page has not changed) or rejects it (never sent); `gone` says why it went unsent.',
    input: z.strictObject({ id: z.string().min(1).max(100), release: z.boolean() }),
    output: z.strictObject({
      outcome: z.enum(HELD_OUTCOMES),
      why: HeldWhySchema.optional(),
      held: z.array(HeldActSchema),
    }),
  }),
  'plan.get': defineCall({
    description: 'The plan the agent posted, if any.',
    input: none,
    output: planResult,
  }),
  'plan.approve': defineCall({
    description: 'Approves the posted plan, so an ask-first agent may start acting.',
    input: none,
    output: planResult,
  }),
  interject: defineCall({
    description: 'Queues a message that reaches the agent at the top of its next tool result.',
    input: z.strictObject({ message: z.string().min(1).max(MAX_MESSAGE) }),
    output: z.strictObject({ queued: z.number().int() }),
  }),
  stop: defineCall({
    description:
      'Stops the agent: an in-flight call halts within one step and every later call returns STOPPED with the message until resume.',
    input: z.strictObject({ message: z.string().min(1).max(MAX_MESSAGE).optional() }),
    output: StatusSchema,
  }),
  resume: defineCall({
    description: 'Lets the agent act again after a stop.',
    input: none,
    output: StatusSchema,
  }),
  'audit.read': defineCall({
    description:
      'Audit log entries (redacted), newest last, filtered by tool, decision, a substring of the URL and a start time.',
    input: AuditFilterSchema,
    output: z.strictObject({ entries: z.array(AuditEntrySchema) }),
  }),
  'pairing.status': defineCall({
    description:
      'Whether a pairing secret exists and where, whether the extension is connected and which Chrome, whether a one-time code is outstanding (never the code), whether a revoke stands, and the extension folder to load unpacked.',
    input: none,
    output: PairingStatusSchema,
  }),
  'pairing.code': defineCall({
    description:
      "A fresh one-time code to type into the extension's popup, replacing any earlier one; it lifts a standing revoke. Show it to the person only.",
    input: none,
    output: PairingCodeSchema,
  }),
  'pairing.revoke': defineCall({
    description:
      "Forgets the pairing secret and any outstanding code and drops the extension's link at once; it cannot connect, not even through the native host, until a new code is asked for. Returns the new status.",
    input: none,
    output: PairingStatusSchema,
  }),
} as const;

export type ControlApi = typeof CONTROL_API;
export type ControlCall = keyof ControlApi;
/** What a caller passes (fields with defaults may be left out). */
export type ControlInput<N extends ControlCall> = z.input<ControlApi[N]['input']>;
/** What a handler receives, defaults filled in. */
export type ControlArgs<N extends ControlCall> = z.output<ControlApi[N]['input']>;
export type ControlOutput<N extends ControlCall> = z.output<ControlApi[N]['output']>;
export type Status = ControlOutput<'status'>;

export function isControlCall(name: string): name is ControlCall {
  return Object.hasOwn(CONTROL_API, name);
}
