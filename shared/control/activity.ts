// The activity stream: everything the agent did and everything the person decided, in order, for the oversight panel.
import { z } from 'zod';
import { RuleTextSchema } from '../policy/transfer.js';
import { HeldActSchema, HeldWhySchema, HELD_OUTCOMES } from './held.js';
import { CLIENT_CHANGES, McpClientSchema } from './mcp-clients.js';
import { PlanSchema } from './oversight.js';
import { PAIRING_CHANGES } from './pairing.js';
import { QuestionSchema } from './question.js';

/** What became of a call: run, refused by the policy, waiting on a question, held for confirmation, or stopped. */
export const CALL_DECISIONS = ['allowed', 'denied', 'asked', 'held', 'stopped'] as const;
export type CallDecision = (typeof CALL_DECISIONS)[number];

/** One tool call as the core records it; the same fields, minus `summary`, go to the audit log. */
export const CallRecordSchema = z.strictObject({
  id: z.string(),
  /** The MCP client's name, as it introduced itself. */
  client: z.string(),
  tool: z.string(),
  /** The human-readable element description the tool was given. */
  element: z.string().optional(),
  url: z.string().optional(),
  decision: z.enum(CALL_DECISIONS),
  /** The error code when the call failed or was refused. */
  code: z.string().optional(),
  ms: z.number().optional(),
  /** One line on what happened, for the panel only. */
  summary: z.string().optional(),
});
export type CallRecord = z.infer<typeof CallRecordSchema>;

/** The image a call returned (a `screenshot`), base64, as `activity.shot` hands it back. */
export const ShotSchema = z.strictObject({ mimeType: z.enum(['image/jpeg', 'image/png']), data: z.string() });
export type Shot = z.infer<typeof ShotSchema>;

const stamp = { seq: z.number().int().positive(), time: z.number() };

export const ActivityEventSchema = z.discriminatedUnion('type', [
  z.strictObject({
    ...stamp,
    type: z.literal('call'),
    ...CallRecordSchema.shape,
    /**
     * The call returned an image, kept apart for `activity.shot` while it is among the newest few. On the event, not
     * the record: the audit log is written from the record, so the flag cannot reach it.
     */
    shot: z.literal(true).optional(),
  }),
  z.strictObject({
    ...stamp,
    type: z.literal('question'),
    /** `withdrawn`: the agent's question ended unanswered (the person stopped the agent, or its call was cancelled). */
    change: z.enum(['added', 'answered', 'withdrawn']),
    question: QuestionSchema,
    /** For `answered`: once / always / deny with the level granted, or the reply. */
    answer: z.string().optional(),
  }),
  z.strictObject({ ...stamp, type: z.literal('plan'), change: z.enum(['posted', 'approved']), plan: PlanSchema }),
  z.strictObject({
    ...stamp,
    type: z.literal('interjection'),
    change: z.enum(['queued', 'delivered']),
    message: z.string(),
  }),
  /** `why`: for `gone`, what happened first (its page changed, the browser that held it went away). */
  z.strictObject({
    ...stamp,
    type: z.literal('held'),
    change: z.enum(['added', ...HELD_OUTCOMES]),
    act: HeldActSchema,
    why: HeldWhySchema.optional(),
  }),
  z.strictObject({ ...stamp, type: z.literal('stop'), message: z.string() }),
  z.strictObject({ ...stamp, type: z.literal('resume') }),
  z.strictObject({
    ...stamp,
    type: z.literal('policy'),
    /** standing: the editor replaced the rules; rule / grant: one answer added a rule / a grant for this run; self: our own pages. */
    change: z.enum(['standing', 'rule', 'grant', 'self']),
    rule: RuleTextSchema.optional(),
  }),
  z.strictObject({
    ...stamp,
    type: z.literal('pairing'),
    /** `code-issued` says only that one was: the code is for the person's eyes, never the stream. */
    change: z.enum(PAIRING_CHANGES),
    /** For `connected` / `disconnected`: the Chrome version the extension reported. */
    chrome: z.string().optional(),
  }),
  z.strictObject({ ...stamp, type: z.literal('client'), change: z.enum(CLIENT_CHANGES), client: McpClientSchema }),
]);
export type ActivityEvent = z.infer<typeof ActivityEventSchema>;
export type CallEvent = Extract<ActivityEvent, { type: 'call' }>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event before the activity log stamps it with `seq` and `time`. */
export type ActivityInput = DistributiveOmit<ActivityEvent, 'seq' | 'time'>;
