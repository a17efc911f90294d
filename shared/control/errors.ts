// The control API's error codes and error type: what a person-facing surface shows when a call is refused.
import { z } from 'zod';

/**
 * Its own small set, not the tool catalog's ERROR_CODES: these reach a person's panel, not a model, and the transport
 * codes have no meaning for a tool call. BAD_ARGS keeps the catalog's name for the same fault.
 */
export const CONTROL_ERROR_CODES = {
  BAD_ARGS: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  UNKNOWN_CALL: 404,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INTERNAL: 500,
} as const;

export type ControlErrorCode = keyof typeof CONTROL_ERROR_CODES;

export class ControlError extends Error {
  readonly code: ControlErrorCode;

  constructor(code: ControlErrorCode, message: string) {
    super(message);
    this.name = 'ControlError';
    this.code = code;
  }

  /** The HTTP status the loopback transport answers with. */
  get status(): number {
    return CONTROL_ERROR_CODES[this.code];
  }
}

/** How a refused call answers on the loopback transport. */
export const ErrorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(Object.keys(CONTROL_ERROR_CODES) as [ControlErrorCode, ...ControlErrorCode[]]),
    message: z.string(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

const MAX_ISSUES = 3;

/** BAD_ARGS naming each bad field as a path (`rules[2].site`), the way docs/policy.md names places in a file. */
export function inputError(call: string, error: z.ZodError): ControlError {
  const issues = error.issues.slice(0, MAX_ISSUES).map((issue) => {
    const what =
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`
        : issue.message.replace(/^Invalid input: /, '');
    return issue.path.length ? `${fieldPath(issue.path)}: ${what}` : what;
  });
  return new ControlError('BAD_ARGS', `${call}: ${issues.join('; ')}`);
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i ? '.' : ''}${String(key)}`)).join('');
}
