// Where and why JSON.parse gave up on a text, said as line and column so a person can fix the file.

/** True when JSON.parse fails on this prefix for a reason inside it, not merely because the text stops there. */
function brokenWithin(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return false;
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith('Unexpected end of JSON input')) return false;
    const at = / at position (\d+)/.exec(message);
    // A cut-off token ("1.", an open string) is reported at the prefix's end: not a fault yet.
    return !at || Number(at[1]) < prefix.length;
  }
}

/**
 * The 0-based offset of the first character JSON.parse rejects, or the text's length when the text just ends too soon.
 * V8 gives no position for an unexpected token, so this finds the shortest prefix that is already broken.
 */
export function jsonErrorOffset(text: string): number {
  if (!brokenWithin(text)) return text.length;
  let fine = 0;
  let broken = text.length;
  while (broken - fine > 1) {
    const middle = Math.floor((fine + broken) / 2);
    if (brokenWithin(text.slice(0, middle))) broken = middle;
    else fine = middle;
  }
  return fine;
}

/**
 * "Unexpected token 'x' at line 3, column 7" for a text JSON.parse refused with `error`. V8's own text is cut before its
 * excerpt of the file: a config can hold other servers' API keys, and this message may be logged.
 */
export function describeJsonError(text: string, error: unknown): string {
  const reason = (error instanceof Error ? error.message : String(error)).replace(
    /(, (\.\.\.)?"| in JSON at position \d+).*$/s,
    '',
  );
  const before = text.slice(0, jsonErrorOffset(text)).split('\n');
  return `${reason} at line ${before.length}, column ${before.at(-1)!.length + 1}`;
}
