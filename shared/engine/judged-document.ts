// Binds an agent's script to the document the policy judged: a navigation between the check and the run refuses it.
import { ToolError } from '../protocol/errors.js';
import type { ExceptionDetails } from './main-world.js';
import { randomHex } from './random-hex.js';

/**
 * Why not an execution context id: Runtime.evaluate takes `contextId`, but a numeric id is per renderer process, and a
 * navigation to another site swaps the process, whose own contexts are numbered from 1 again; `uniqueContextId` is
 * told only through Runtime.enable, which replays the console and is visible to pages that probe for a debugger. So
 * the judged document is marked instead: a fresh key is set in its main world (the same evaluate that reads where it
 * is), the policy judges that document, and the agent's script runs behind a first line that refuses to go on unless
 * the key is there, deleting it. A document that replaced the judged one between the two has no such key.
 */
export interface JudgedDocument {
  /** The expression that marks the document and reads its URL (location is unforgeable by the page). */
  mark: string;
  /** The script's first line: throws REFUSAL unless the mark is in this document, and takes it. */
  guard: string;
}

const REFUSAL = 'chrome-mcp: the document changed before the script ran';

export function judgedDocument(): JudgedDocument {
  const key = JSON.stringify(`__chrome_mcp_judged_${randomHex(16)}`);
  return {
    mark: `globalThis[${key}] = true; location.href`,
    // One `if`, so the script's completion value is the agent's own (a declaration after it leaves it undefined).
    guard: `if (globalThis[${key}] !== true || !delete globalThis[${key}]) throw ${JSON.stringify(REFUSAL)};`,
  };
}

/** The refusal the guard threw, as the error the model gets; undefined for any other exception. */
export function documentChanged(details: ExceptionDetails): ToolError | undefined {
  return details.exception?.value === REFUSAL ? documentGone() : undefined;
}

/** The error the model gets when the document the script was bound to was replaced before it ran. */
export function documentGone(): ToolError {
  return new ToolError(
    'EVAL_FAILED',
    'eval: the tab navigated between the site check and the script, which did not run.',
    {
      next: 'Call `snapshot` to see where the tab is now, then `eval` again if that site is trusted.',
    },
  );
}
