// Chrome's native-messaging framing: a 32-bit length in the machine's byte order, then that many bytes of UTF-8 JSON.
import { endianness } from 'node:os';

/** Chrome refuses a host → browser message over 1 MB. */
export const MAX_REPLY_BYTES = 1024 * 1024;
/** Our requests are a few bytes; anything near this is not from our extension. */
export const MAX_REQUEST_BYTES = 64 * 1024;

const LITTLE_ENDIAN = endianness() === 'LE';

export function encodeMessage(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  if (body.length > MAX_REPLY_BYTES)
    throw new Error(`a native-messaging reply of ${body.length} bytes is over Chrome's 1 MB limit`);
  const header = Buffer.alloc(4);
  if (LITTLE_ENDIAN) header.writeUInt32LE(body.length);
  else header.writeUInt32BE(body.length);
  return Buffer.concat([header, body]);
}

export type Decoded = { message: unknown } | { malformed: 'json' | 'too_large' };

/** Cuts a byte stream into messages; after `too_large` the stream has no trustworthy boundary left and yields nothing more. */
export class MessageDecoder {
  private buffered = Buffer.alloc(0);
  private broken = false;

  push(chunk: Buffer): Decoded[] {
    if (this.broken) return [];
    this.buffered = Buffer.concat([this.buffered, chunk]);
    const out: Decoded[] = [];
    while (this.buffered.length >= 4) {
      const length = LITTLE_ENDIAN ? this.buffered.readUInt32LE(0) : this.buffered.readUInt32BE(0);
      if (length > MAX_REQUEST_BYTES) {
        this.broken = true;
        this.buffered = Buffer.alloc(0);
        out.push({ malformed: 'too_large' });
        break;
      }
      if (this.buffered.length < 4 + length) break;
      const body = this.buffered.subarray(4, 4 + length).toString('utf8');
      this.buffered = this.buffered.subarray(4 + length);
      try {
        out.push({ message: JSON.parse(body) as unknown });
      } catch {
        out.push({ malformed: 'json' });
      }
    }
    return out;
  }
}
