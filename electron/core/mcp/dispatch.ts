// The one wrapper every tool call goes through: validate strictly, honour the person's stop and plan, check the site
// policy, run, ask the person when a site is undecided, record the call, and redact whatever goes back.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallDecision } from '../../../shared/control/activity.js';
import { ToolError, toToolError, type ErrorCode } from '../../../shared/protocol/errors.js';
import type { AgentContext, Executor, OperationContext, OperationResult } from '../../../shared/protocol/operations.js';
import { redactText } from '../../../shared/redact/text.js';
import { isCoreOperation, type ToolDefinition } from '../../../shared/tools/define.js';
import { parseToolArgs } from '../../../shared/tools/validate.js';
import type { ControlHub } from '../control/hub.js';
import { stoppedError } from '../control/oversight.js';
import type { Log } from '../log.js';
import type { AgentRegistry } from './agent-registry.js';
import { redactCallResult, toCallResult, toErrorResult } from './call-result.js';
import { runCoreTool } from './core-tools.js';
import type { Elicitor } from './elicit.js';
import { holdForPerson } from './held-flow.js';
import { quotePageResult, withPersonWords } from './person-voice.js';
import { type CallExtra, progressReporter } from './progress.js';
import { refuseUrlsOffPolicy } from './site-check.js';
import type { StatusReport } from './status.js';

export interface DispatchDeps {
  executor: Executor;
  /** The core answers `status` itself (it knows every backend, the executor only its own), with the caller's tab. */
  status(agent: AgentContext): StatusReport | Promise<StatusReport>;
  control: ControlHub;
  /** The MCP sessions open on the core: every call names its own and the live ones, so each keeps its own current tab. */
  agents: AgentRegistry;
  log: Log;
  /** The app's downloads folder, which `downloads` lists. */
  downloads?: string;
}

export interface SessionDeps {
  /** The MCP client's name, once it has introduced itself. */
  client(): string;
  elicitor: Elicitor;
  /** This session's id in `agents`. */
  agent: string;
  /** This session's mark on the person's words (person-voice.ts), announced in its server's instructions. */
  voiceMark: string;
  /** It lists the DevTools tools now, so the engine captures what its tabs do for them to read. */
  devtools?(): boolean;
}

export type Dispatch = (
  tool: ToolDefinition,
  args: Record<string, unknown>,
  extra: CallExtra,
) => Promise<CallToolResult>;

const DECISIONS: Partial<Record<ErrorCode, CallDecision>> = {
  POLICY_DENIED: 'denied',
  DOMAIN_CONFIRMATION_REQUIRED: 'asked',
  PLAN_NOT_APPROVED: 'asked',
  HELD: 'held',
  STOPPED: 'stopped',
};

export function createDispatch(deps: DispatchDeps, session: SessionDeps): Dispatch {
  const { control } = deps;

  const execute = async (
    tool: ToolDefinition,
    args: Record<string, unknown>,
    extra: CallExtra,
    signal: AbortSignal,
  ): Promise<OperationResult> => {
    const agent = { id: session.agent, live: deps.agents.live(), ...(session.devtools?.() ? { devtools: true } : {}) };
    if (isCoreOperation(tool.op))
      return runCoreTool(
        tool.op,
        args,
        {
          status: () => deps.status(agent),
          control,
          elicitor: session.elicitor,
          ...(deps.downloads === undefined ? {} : { downloads: deps.downloads }),
        },
        signal,
      );
    // Progress lines name URLs too (`navigating to …`), and the client may show them to the model.
    const report = progressReporter(extra);
    const progress: OperationContext['progress'] = (message, done, total) => report(redactText(message), done, total);
    // A backend's result carries page content: a page that writes "The person says: …" is labelled as the page.
    return quotePageResult(await deps.executor.run(tool.op, args, { progress, signal, agent }), session.voiceMark);
  };

  /** `answered`: the person already answered a question for this call, so a second refusal is final. */
  const guarded = async (
    tool: ToolDefinition,
    args: Record<string, unknown>,
    extra: CallExtra,
    answered = false,
  ): Promise<OperationResult> => {
    const stopped = control.stopped();
    if (stopped && !tool.whileStopped) throw stoppedError(stopped);
    const plan = control.plan();
    if (plan?.askFirst && !plan.approved && tool.policy !== 'none' && !tool.readOnly) {
      throw new ToolError(
        'PLAN_NOT_APPROVED',
        'The person has not approved your plan yet, and you asked to wait for that before acting.',
      );
    }
    // The person's Stop reaches a call in flight: a batch halts before its next step, the extension gets a cancel.
    const signal = AbortSignal.any([extra.signal, control.stopSignal()]);
    try {
      refuseUrlsOffPolicy(tool, args, control.policy());
      return await execute(tool, args, extra, signal);
    } catch (error) {
      const refused = toToolError(error);
      if (refused.code === 'HELD') return holdForPerson(refused, control, session.elicitor, signal);
      // Anything else goes up as thrown, so an INTERNAL error keeps its own stack for the log.
      if (answered || refused.code !== 'DOMAIN_CONFIRMATION_REQUIRED' || !isSiteRefusal(refused.data)) throw error;
      // Undecided site: the person is asked, in the client when it can, else in the panel; an answer in the client
      // lets the call go on at once.
      // The question names the exact origin (scheme, host, port), so no answer grants more than the page asked about.
      const { origin, need } = refused.data;
      const url = typeof args['url'] === 'string' ? { url: args['url'] } : {};
      const question = control.askSite({ site: origin, need, tool: tool.name, ...url });
      const answer = await session.elicitor.siteAnswer(question.site, question.need, tool.name, signal);
      if (answer === undefined)
        throw new ToolError(refused.code, `${refused.message} The person is asked (question ${question.id}).`, {
          next: refused.next,
          data: { ...refused.data, question: question.id },
        });
      await control.call('questions.answer', { id: question.id, answer });
      return guarded(tool, args, extra, true);
    }
  };

  return async (tool, rawArgs, extra) => {
    const started = performance.now();
    let args: Record<string, unknown> = rawArgs;
    let result: CallToolResult;
    let code: ErrorCode | undefined;
    let data: Record<string, unknown> | undefined;
    let image: OperationResult['image'];
    try {
      args = parseToolArgs(tool, rawArgs);
      const done = await guarded(tool, args, extra);
      data = done.data;
      image = done.image;
      result = toCallResult(done, tool.output);
    } catch (thrown) {
      const error = toToolError(thrown);
      code = error.code;
      // An INTERNAL error is our bug: keep its stack for the person reading the logs, never for the model.
      if (error.code === 'INTERNAL')
        deps.log(`${tool.name} failed: ${thrown instanceof Error ? thrown.stack : String(thrown)}`);
      result = toErrorResult(error);
    }
    control.recordCall(
      {
        client: session.client(),
        tool: tool.name,
        ...describeTarget(args),
        ...urlOf(args, data),
        decision: code ? (DECISIONS[code] ?? 'allowed') : 'allowed',
        ...(code ? { code } : {}),
        ms: Math.round(performance.now() - started),
      },
      image,
    );
    // Whatever the backend is, nothing reaches the model unredacted: results, errors (a page's URL in a message) alike.
    return redactCallResult(withPersonWords(result, control.takeInterjections(), session.voiceMark));
  };
}

type SiteRefusal = { origin: string; need: 'read' | 'act' | 'trusted' };

function isSiteRefusal(data: Record<string, unknown> | undefined): data is SiteRefusal {
  const need = data?.['need'];
  return typeof data?.['origin'] === 'string' && (need === 'read' || need === 'act' || need === 'trusted');
}

/** What the call aimed at, for the activity stream: the model's own description first, else how it named the element. */
function describeTarget(args: Record<string, unknown>): { element?: string } {
  const text = [args['element'], args['ref'], args['selector'], args['name']].find(
    (value): value is string => typeof value === 'string',
  );
  return text === undefined ? {} : { element: text.slice(0, 200) };
}

function urlOf(args: Record<string, unknown>, data: Record<string, unknown> | undefined): { url?: string } {
  const url =
    typeof data?.['url'] === 'string' ? data['url'] : typeof args['url'] === 'string' ? args['url'] : undefined;
  return url === undefined ? {} : { url: url.slice(0, 500) };
}
