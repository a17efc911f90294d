// fill_form and select_option: many fields set in one page call per frame; checkboxes and rich fields through real input.
import { isErrorCode, ToolError, type ErrorCode } from '../../protocol/errors.js';
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { Target } from '../../protocol/target.js';
import type { FillFormArgs, SelectOptionArgs } from '../../tools/args.js';
import type { Frame } from '../frames.js';
import type { FillOutcome, FillValue } from '../page/form-fields.js';
import type { PageContext } from '../page-context.js';
import { callOnElement, resolveTarget, type ElementHandle } from '../targets.js';
import { typeIntoElement } from './keyboard.js';
import { clickElement } from './pointer.js';

interface Failure {
  field: number;
  code: ErrorCode;
  message: string;
}

interface Pending {
  index: number;
  handle: ElementHandle;
  value: FillValue;
}

export async function selectOption(
  page: PageContext,
  args: SelectOptionArgs,
  _ctx: OperationContext,
): Promise<OperationResult> {
  const handle = await resolveTarget(page, args, 'act');
  try {
    const values = Array.isArray(args.values) ? args.values : [args.values];
    page.input.note({ handle });
    await page.input.beforeAct();
    const chosen = await callOnElement(page, handle, 'chooseOptions', [values]);
    return {
      text: `selected ${chosen.labels.map((label) => `"${label}"`).join(', ')} in ${args.element ?? chosen.what}`,
    };
  } finally {
    page.frames.release(handle.frame, [handle.objectId]);
  }
}

/**
 * Resolves every field at once, sets each frame's fields in one page call, then does what needs real input one by
 * one: a click for a checkbox or radio that must change (so the page's handlers run), typing for contenteditable.
 */
export async function fillForm(
  page: PageContext,
  args: FillFormArgs,
  _ctx: OperationContext,
): Promise<OperationResult> {
  const failures: Failure[] = [];
  const fail = (field: number, error: unknown) => failures.push(failureOf(field, error));
  const resolved = await Promise.allSettled(args.fields.map((field) => resolveTarget(page, field, 'act')));
  const byFrame = new Map<string, { frame: Frame; fields: Pending[] }>();
  resolved.forEach((outcome, index) => {
    if (outcome.status === 'rejected')
      return fail(
        index,
        new ToolError(codeOf(outcome.reason), `${targetText(args.fields[index]!)}: ${messageOf(outcome.reason)}`),
      );
    const group = byFrame.get(outcome.value.frame.frameId) ?? { frame: outcome.value.frame, fields: [] };
    group.fields.push({ index, handle: outcome.value, value: args.fields[index]!.value });
    byFrame.set(outcome.value.frame.frameId, group);
  });
  try {
    const later: (Pending & { outcome: FillOutcome; what: string })[] = [];
    // A page may send on a field's change (a form that posts itself): the gate judges from the first value set.
    const first = [...byFrame.values()][0]?.fields[0];
    if (first) page.input.note({ handle: first.handle });
    await page.input.beforeAct();
    await Promise.all(
      [...byFrame.values()].map(async ({ frame, fields }) => {
        const results = await page.frames.call(frame, 'fillFields', [fields.map((field) => field.value)], {
          handles: fields.map((field) => field.handle.objectId),
        });
        results.forEach((result, i) => {
          const field = fields[i]!;
          if (result.code)
            fail(field.index, new ToolError(isErrorCode(result.code) ? result.code : 'INTERNAL', result.message));
          else if (result.outcome !== 'done') later.push({ ...field, outcome: result.outcome!, what: result.what });
        });
      }),
    );
    for (const field of later.sort((a, b) => a.index - b.index)) {
      try {
        if (field.outcome === 'keyboard') await typeIntoElement(page, field.handle, String(field.value));
        else await toggle(page, field.handle, field.value, field.what);
      } catch (error) {
        fail(field.index, error);
      }
    }
  } finally {
    for (const { frame, fields } of byFrame.values())
      page.frames.release(
        frame,
        fields.map((field) => field.handle.objectId),
      );
  }
  const total = args.fields.length;
  if (failures.length === 0) return { text: `filled ${total} field${total === 1 ? '' : 's'}` };
  failures.sort((a, b) => a.field - b.field);
  const lines = failures.map((failure) => `- field ${failure.field + 1}: ${failure.code}: ${failure.message}`);
  throw new ToolError(
    failures[0]!.code,
    `Filled ${total - failures.length} of ${total} fields; these failed:\n${lines.join('\n')}`,
    {
      data: { filled: total - failures.length, failed: failures },
    },
  );
}

/** Clicks a checkbox or radio (or, when the real input is hidden behind its label, the label) and checks it changed. */
async function toggle(page: PageContext, handle: ElementHandle, value: FillValue, what: string): Promise<void> {
  try {
    await clickElement(page, handle);
  } catch (error) {
    if (!(error instanceof ToolError) || (error.code !== 'NOT_VISIBLE' && error.code !== 'OBSCURED')) throw error;
    // Styled checkboxes hide the input and draw its label: click the label, as a person would.
    const label = await page.frames
      .call(handle.frame, 'visibleLabel', [], { handles: [handle.objectId], returnHandle: true })
      .catch(() => {
        throw error;
      });
    try {
      await clickElement(page, { frame: handle.frame, objectId: label });
    } finally {
      page.frames.release(handle.frame, [label]);
    }
  }
  if ((await callOnElement(page, handle, 'fillField', [value])) !== 'done') {
    throw new ToolError(
      'INPUT_NOT_LANDED',
      `Clicking ${what} did not change it; the page may have refused the change.`,
      {
        next: 'Call snapshot to see the field, then click it or its label yourself.',
      },
    );
  }
}

function failureOf(field: number, error: unknown): Failure {
  return { field, code: codeOf(error), message: messageOf(error) };
}

function codeOf(error: unknown): ErrorCode {
  return error instanceof ToolError ? error.code : 'INTERNAL';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function targetText(target: Target): string {
  if (target.element) return target.element;
  if (target.ref !== undefined) return `ref ${target.ref}`;
  if (target.selector !== undefined) return `selector "${target.selector}"`;
  return `role ${target.role ?? '?'}${target.name !== undefined ? ` "${target.name}"` : ''}`;
}
