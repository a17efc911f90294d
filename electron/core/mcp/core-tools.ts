// The tools the core answers itself: status (backends and the person's oversight), plan, and ask.
import { ToolError } from '../../../shared/protocol/errors.js';
import type { OperationResult } from '../../../shared/protocol/operations.js';
import type { ArgsOf } from '../../../shared/tools/args.js';
import { bindHandlers } from '../../../shared/tools/bind.js';
import type { CoreOperation } from '../../../shared/tools/define.js';
import type { ControlHub } from '../control/hub.js';
import { listDownloads } from '../files/save-download.js';
import type { Elicitor } from './elicit.js';
import { type StatusReport, statusResult } from './status.js';

export interface CoreToolDeps {
  /** The report with the calling session's own current tab. */
  status(): StatusReport | Promise<StatusReport>;
  control: ControlHub;
  elicitor: Elicitor;
  /** The app's downloads folder; absent where this core saves none. */
  downloads?: string;
}

// Long enough for a person to notice and type; a model waiting longer would rather go on and ask again.
const ASK_TIMEOUT_MS = 120_000;

type CoreRun = (args: Record<string, unknown>, deps: CoreToolDeps, signal: AbortSignal) => Promise<OperationResult>;

// Each handler takes exactly its tool's arguments (shared/tools/bind.ts), parsed by the dispatcher.
const CORE_TOOLS: Record<CoreOperation, CoreRun> = bindHandlers<CoreRun, 0>()({
  status: async (_args: ArgsOf<'status'>, deps: CoreToolDeps) => {
    const report = await deps.status();
    const oversight = deps.control.oversightStatus();
    const base = statusResult(report);
    return { text: [base.text, ...oversightLines(oversight)].join('\n'), data: { ...base.data, oversight } };
  },
  plan: async (args: ArgsOf<'plan'>, deps: CoreToolDeps) => {
    const plan = deps.control.setPlan(args.steps, args.askFirst === true);
    const wait = plan.askFirst ? '; acts wait until the person approves it' : '';
    return { text: `plan shown to the person (${args.steps.length} steps)${wait}`, data: { ...plan } };
  },
  ask,
  downloads: async (_args: ArgsOf<'downloads'>, deps: CoreToolDeps) =>
    deps.downloads === undefined ? { text: 'This server saves no downloads.' } : listDownloads(deps.downloads),
});

export function runCoreTool(
  op: CoreOperation,
  args: Record<string, unknown>,
  deps: CoreToolDeps,
  signal: AbortSignal,
): Promise<OperationResult> {
  return CORE_TOOLS[op](args, deps, signal);
}

async function ask(args: ArgsOf<'ask'>, deps: CoreToolDeps, signal: AbortSignal): Promise<OperationResult> {
  // A client that can put the question to the person itself does so: they answer where they are already looking.
  const elicited = await deps.elicitor.reply(args.question, args.choices, signal);
  if (elicited !== undefined)
    return elicited === null
      ? { text: 'The person declined to answer.', data: { answered: false } }
      : replied(elicited);
  const timeout = ASK_TIMEOUT_MS;
  const waited = AbortSignal.any([signal, AbortSignal.timeout(timeout)]);
  try {
    return replied(await deps.control.askAgentQuestion(args.question, args.choices, waited));
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if (signal.aborted) throw new ToolError('STOPPED', 'ask was cancelled before the person answered.');
    return {
      text: `No reply within ${Math.round(timeout / 1000)} s; the question was withdrawn. Go on without it, or ask again.`,
      data: { answered: false },
    };
  }
}

function replied(reply: string): OperationResult {
  return { text: `The person replied: ${reply}`, data: { answered: true, reply } };
}

function oversightLines(status: ReturnType<ControlHub['oversightStatus']>): string[] {
  const lines: string[] = [];
  if (status.stopped) lines.push(`stopped by the person: ${status.stopped.message}`);
  if (status.plan)
    lines.push(
      `plan: ${status.plan.steps.length} steps, ${status.plan.approved ? 'approved' : status.plan.askFirst ? 'waiting for approval' : 'shown'}`,
    );
  if (status.questions) lines.push(`questions waiting for the person: ${status.questions}`);
  if (status.held) lines.push(`risky acts held for the person's confirmation: ${status.held}`);
  return lines;
}
