// What the person reads when a call fails: the API's own message (it names the field and the fix), or a plain line.
import { ControlError } from '../../shared/control/errors.js';

export function messageOf(error: unknown): string {
  if (error instanceof ControlError && error.code === 'UNAUTHORIZED') {
    return "This panel's token is from an earlier run of chrome-mcp: open the panel again with `chrome-mcp ui`.";
  }
  if (error instanceof TypeError) return 'chrome-mcp is not answering (it may have stopped). Retrying…';
  return error instanceof Error ? error.message : String(error);
}
