// Handler tables bound by type: each operation's handler must take exactly its tool's arguments, or it is a compile
// error naming the operation. Assignable is not enough: every element tool's (all optional) arguments fit another's.
import type { ArgsOf } from './args.js';
import type { ToolOperation } from './catalog.js';

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The operations in `Table` whose handler's parameter number `At` is not exactly its tool's parsed arguments. */
type WrongBindings<Table, At extends number> = {
  [Op in keyof Table & ToolOperation]: Table[Op] extends (...params: infer P) => unknown
    ? Same<P[At], ArgsOf<Op>> extends true
      ? never
      : Op
    : Op;
}[keyof Table & ToolOperation];

/**
 * A handler table whose every handler takes its own tool's arguments at parameter `At` (0-based); a wrong one reads
 * as "… is not assignable to type 'takes another tool's arguments'" at that operation. It comes back typed as `Run`,
 * the shape its caller invokes: with arguments already parsed by the operation's own tool schema.
 */
export function bindHandlers<Run, At extends number>() {
  type Checked<Table> = Table & Record<WrongBindings<Table, At>, "takes another tool's arguments">;
  return <Table>(table: Checked<Table>): Record<keyof Table, Run> =>
    // The one widening: the check above ties each handler to its tool, and its callers parse by that tool's schema.
    table as unknown as Record<keyof Table, Run>;
}
