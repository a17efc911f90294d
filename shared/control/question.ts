// Questions waiting for the person: a site the agent needs (allow once, always, deny) or the agent's own question.
import { z } from 'zod';
import type { AccessLevel } from '../policy/levels.js';
import { MAX_MESSAGE } from './oversight.js';

export const ACCESS_LEVELS = ['read', 'act', 'trusted'] as const satisfies readonly AccessLevel[];

export const SiteQuestionSchema = z.strictObject({
  id: z.string(),
  kind: z.literal('site'),
  /** The site as a rule would name it (`example.com`, `localhost:3000`): what an answer allows or blocks. */
  site: z.string(),
  need: z.enum(ACCESS_LEVELS),
  /** The tool that needed it, so the person sees what the agent was about to do. */
  tool: z.string(),
  url: z.string().optional(),
  asked: z.number(),
});
export type SiteQuestion = z.infer<typeof SiteQuestionSchema>;

/**
 * The level an allow grants when the person picks none: reading is granted with acting, as an agent sent to read a page
 * is there to act on it (risky acts there still wait for the person), and every prompt says so (`SITE_GRANTS`);
 * running scripts only when asked for.
 */
export function allowedLevel(need: AccessLevel): AccessLevel {
  return need === 'trusted' ? 'trusted' : 'act';
}

/** What a question's need and an allow's level say to the person. */
export const SITE_GRANTS: Record<(typeof ACCESS_LEVELS)[number], string> = {
  read: 'read',
  act: 'read and act on',
  trusted: 'run scripts on',
};

export const AgentQuestionSchema = z.strictObject({
  id: z.string(),
  kind: z.literal('agent'),
  text: z.string(),
  choices: z.array(z.string()).optional(),
  asked: z.number(),
});
export type AgentQuestion = z.infer<typeof AgentQuestionSchema>;

export const QuestionSchema = z.discriminatedUnion('kind', [SiteQuestionSchema, AgentQuestionSchema]);
export type Question = z.infer<typeof QuestionSchema>;

export const SITE_ANSWERS = ['once', 'always', 'deny'] as const;
export type SiteAnswer = (typeof SITE_ANSWERS)[number];

/**
 * One object rather than a union of two, so a mistake reads "reply: …" instead of zod's "no union member matched";
 * which field a question takes is checked against its kind when it is answered.
 */
export const AnswerInputSchema = z
  .strictObject({
    id: z.string().min(1).max(100),
    /** For a site question. */
    answer: z.enum(SITE_ANSWERS).optional(),
    /** For a site question answered once or always: the level to grant instead of the one the question needed. */
    level: z.enum(ACCESS_LEVELS).optional(),
    /** For an agent question. */
    reply: z.string().min(1).max(MAX_MESSAGE).optional(),
  })
  .superRefine((input, ctx) => {
    if ((input.answer === undefined) === (input.reply === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'give either answer (a site question) or reply (an agent question)',
        path: [],
      });
    }
    if (input.level !== undefined && input.answer !== 'once' && input.answer !== 'always') {
      ctx.addIssue({ code: 'custom', message: 'a level goes with answer "once" or "always"', path: ['level'] });
    }
  });
export type AnswerInput = z.infer<typeof AnswerInputSchema>;
