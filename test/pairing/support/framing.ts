// Native-messaging frames as Chrome writes them, for talking to the host process in tests.
import { endianness } from 'node:os';

/** A request frame: length in native byte order, then the UTF-8 JSON. */
export function frame(body: string | Buffer): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const header = Buffer.alloc(4);
  if (endianness() === 'LE') header.writeUInt32LE(bytes.length);
  else header.writeUInt32BE(bytes.length);
  return Buffer.concat([header, bytes]);
}

/** Every reply frame in a captured stdout; throws if anything but whole frames is there. */
export function replies(stdout: Buffer): unknown[] {
  const out: unknown[] = [];
  let rest = stdout;
  while (rest.length) {
    if (rest.length < 4) throw new Error(`stray bytes on stdout: ${rest.toString('hex')}`);
    const length = endianness() === 'LE' ? rest.readUInt32LE(0) : rest.readUInt32BE(0);
    if (rest.length < 4 + length) throw new Error('a truncated frame on stdout');
    out.push(JSON.parse(rest.subarray(4, 4 + length).toString('utf8')));
    rest = rest.subarray(4 + length);
  }
  return out;
}
