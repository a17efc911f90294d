// Questions put to the person through the MCP client (elicitation), when the client offers it: they answer in the
// chat they are already watching instead of in the panel.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { allowedLevel, SITE_GRANTS, type SiteAnswer, type SiteQuestion } from '../../../shared/control/question.js';

export interface Elicitor {
  /** The person's reply; null when they declined; undefined when this client cannot ask (use the panel). */
  reply(
    question: string,
    choices: readonly string[] | undefined,
    signal: AbortSignal,
  ): Promise<string | null | undefined>;
  /** once / always / deny for a site; undefined when this client cannot ask or the person dismissed it. */
  siteAnswer(
    site: string,
    need: SiteQuestion['need'],
    tool: string,
    signal: AbortSignal,
  ): Promise<SiteAnswer | undefined>;
  /** Send or not (a held risky act); undefined when this client cannot ask or the person dismissed it. */
  confirm(message: string, signal: AbortSignal): Promise<boolean | undefined>;
}

// A person reading a question needs time; past this the question stays in the panel instead.
const ELICIT_TIMEOUT_MS = 120_000;

type StringField = ElicitRequestFormParams['requestedSchema']['properties'][string];

const SITE_CHOICES: Record<string, SiteAnswer> = {
  'Allow for this session': 'once',
  'Always allow': 'always',
  Deny: 'deny',
};

export function mcpElicitor(server: Server): Elicitor {
  const able = (): boolean => server.getClientCapabilities()?.elicitation !== undefined;
  const ask = async (
    message: string,
    property: StringField,
    signal: AbortSignal,
  ): Promise<string | null | undefined> => {
    if (!able()) return undefined;
    try {
      const result = await server.elicitInput(
        { message, requestedSchema: { type: 'object', properties: { answer: property }, required: ['answer'] } },
        { signal, timeout: ELICIT_TIMEOUT_MS },
      );
      if (result.action !== 'accept') return null;
      const answer = result.content?.['answer'];
      return typeof answer === 'string' ? answer : null;
    } catch {
      // A client that claimed the capability but failed it (or timed out) leaves the question to the panel.
      return undefined;
    }
  };
  return {
    reply: (question, choices, signal) =>
      ask(
        question,
        choices ? { type: 'string', title: 'Reply', enum: [...choices] } : { type: 'string', title: 'Reply' },
        signal,
      ),
    async siteAnswer(site, need, tool, signal) {
      const granted = allowedLevel(need);
      const allow = granted === need ? 'Allow it?' : `Allow it to ${SITE_GRANTS[granted]} it?`;
      const picked = await ask(
        `The agent wants to ${SITE_GRANTS[need]} ${site} (${tool}). ${allow}`,
        { type: 'string', title: 'Decision', enum: Object.keys(SITE_CHOICES) },
        signal,
      );
      return picked ? SITE_CHOICES[picked] : undefined;
    },
    async confirm(message, signal) {
      const picked = await ask(message, { type: 'string', title: 'Decision', enum: ['Send', 'Do not send'] }, signal);
      return picked ? picked === 'Send' : undefined;
    },
  };
}
