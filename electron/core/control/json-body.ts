// Reads a control call's JSON body: application/json only, at most MAX_BODY_BYTES, parsed or refused with a code.
import type { IncomingMessage } from 'node:http';
import { ControlError } from '../../../shared/control/errors.js';

/** Far above any real call (a full policy of 2,000 rules is ~100 KiB), far below what would hurt to buffer. */
export const MAX_BODY_BYTES = 1024 * 1024;

export async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  // A web page can send text/plain or a form cross-site without a CORS preflight; JSON it cannot.
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json')
    throw new ControlError('UNSUPPORTED_MEDIA_TYPE', "Send the call's input as Content-Type: application/json.");
  const tooLarge = () => new ControlError('TOO_LARGE', `The body is over ${MAX_BODY_BYTES} bytes.`);
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ControlError('BAD_ARGS', 'The body is not valid JSON.');
  }
}
