// dialog: answers the tab's open JavaScript dialog, and tells what the call it interrupted went on to do.
import type { OperationContext, OperationResult } from '../../protocol/operations.js';
import type { DialogArgs } from '../../tools/args.js';
import type { PageContext } from '../page-context.js';

export function answerDialog(page: PageContext, args: DialogArgs, _ctx: OperationContext): Promise<OperationResult> {
  return page.dialogs.answer(args.accept, args.text);
}
