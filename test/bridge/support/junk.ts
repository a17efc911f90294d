// Generated hostile frames for the bridge fuzz tests, from a seeded generator so a failure replays exactly:
// random bytes, broken JSON, non-objects, wrong field types, unknown and misdirected frame types, oversized strings,
// deep nesting, prototype tricks, and well-formed hellos, pairs and proofs that prove nothing.
import { EXTENSION_ID } from '../../../shared/protocol/extension-id.js';
import { WIRE_VERSION } from '../../../shared/protocol/wire.js';
import { seeded } from '../../support/seeded-random.js';

export interface Junk {
  kind: string;
  data: string | Buffer;
  binary: boolean;
}

const ext = { id: EXTENSION_ID, version: '1.0.0', chrome: '140.0.0.0' };
const text = (kind: string, data: string): Junk => ({ kind, data, binary: false });

export function junkGenerator(seed: number, options: { maxBytes: number }) {
  const random = seeded(seed);
  const int = (below: number) => Math.floor(random() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(256)));
  const ascii = (n: number) => String.fromCharCode(...Array.from({ length: n }, () => 32 + int(95)));
  const big = () => 'A'.repeat(Math.min(options.maxBytes - 200, 257 + int(options.maxBytes)));
  const deep = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);
  const nonce = () =>
    Array.from({ length: 43 }, () =>
      pick([...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_']),
    ).join('');
  const weird = () => pick<unknown>([null, 0, -1, 1e308, true, '', [], {}, 'x', [1, 2], { a: 1 }, ascii(20)]);

  const makers: Array<() => Junk> = [
    () => ({ kind: 'random bytes (binary)', data: bytes(1 + int(512)), binary: true }),
    () => ({ kind: 'random bytes (as text)', data: bytes(1 + int(512)), binary: false }),
    () => text('random ascii', ascii(1 + int(300))),
    () => text('empty', ''),
    () =>
      text(
        'truncated json',
        JSON.stringify({ type: 'hello', v: WIRE_VERSION, nonce: nonce(), ext }).slice(0, 1 + int(60)),
      ),
    () => text('json with a bom', `\uFEFF${JSON.stringify({ type: 'hello', v: WIRE_VERSION, nonce: nonce(), ext })}`),
    () => text('not an object', JSON.stringify(weird())),
    () =>
      text('hello, nonce of the wrong type', JSON.stringify({ type: 'hello', v: WIRE_VERSION, nonce: weird(), ext })),
    () =>
      text('hello, the old v1 shape with a secret', JSON.stringify({ type: 'hello', v: 1, secret: ascii(40), ext })),
    () =>
      text(
        'hello, version of the wrong type',
        JSON.stringify({ type: 'hello', v: pick(['1', null, [1], 1.5]), nonce: nonce(), ext }),
      ),
    () =>
      text(
        'hello, ext broken',
        JSON.stringify({
          type: 'hello',
          v: WIRE_VERSION,
          nonce: nonce(),
          ext: pick<unknown>([weird(), { ...ext, id: weird() }, { id: ext.id }]),
        }),
      ),
    () =>
      text('hello, extra field', JSON.stringify({ type: 'hello', v: WIRE_VERSION, nonce: nonce(), ext, admin: true })),
    () => text('hello, huge nonce', JSON.stringify({ type: 'hello', v: WIRE_VERSION, nonce: big(), ext })),
    () =>
      text(
        'hello, huge ext field',
        JSON.stringify({ type: 'hello', v: WIRE_VERSION, nonce: nonce(), ext: { ...ext, version: big() } }),
      ),
    () =>
      text(
        'pair, with a code in it',
        JSON.stringify({ type: 'pair', v: WIRE_VERSION, nonce: nonce(), code: big(), ext }),
      ),
    () =>
      text(
        'unknown type',
        JSON.stringify({
          type: pick(['HELLO', 'helo', 'auth', 'welcome', 'command', 'cancel', 'ping', '__proto__', '']),
          v: WIRE_VERSION,
        }),
      ),
    () =>
      text(
        'a core frame sent back',
        JSON.stringify({ type: 'command', id: 'x1', op: 'eval', args: { expression: '1' }, timeoutMs: 1000 }),
      ),
    () =>
      text(
        'an answer before any question',
        JSON.stringify({ type: 'result', id: `x${int(1e6)}`, ok: true, result: { text: 'pwned' } }),
      ),
    () =>
      text(
        'an error with an unknown code',
        JSON.stringify({ type: 'result', id: `x${int(1e6)}`, ok: false, error: { code: 'PWNED', message: 'x' } }),
      ),
    () =>
      text(
        'progress for nobody',
        JSON.stringify({ type: 'progress', id: `x${int(1e6)}`, message: ascii(30), done: weird() }),
      ),
    () => text('pong of the wrong type', JSON.stringify({ type: 'pong', ts: weird() })),
    () => text('deeply nested arrays', deep(Math.min(20_000, options.maxBytes / 2 - 10), '[', ']')),
    () =>
      text(
        'deeply nested objects',
        deep(Math.min(5_000, options.maxBytes / 8 - 10), '{"a":', '}').replace(/\{"a":\}/, '{}'),
      ),
    () =>
      text(
        'nesting inside a hello',
        JSON.stringify({
          type: 'hello',
          v: WIRE_VERSION,
          nonce: nonce(),
          ext: JSON.parse(deep(500, '{"a":', '}').replace('{"a":}', '{}')),
        }),
      ),
    () =>
      text(
        'prototype tricks',
        pick([
          '{"__proto__":{"type":"hello","v":2}}',
          '{"constructor":{"prototype":{"ok":true}}}',
          '{"type":"proof","__proto__":{"proof":"x"}}',
        ]),
      ),
    () =>
      text(
        'duplicate keys',
        `{"type":"hello","type":"pair","v":${WIRE_VERSION},"nonce":"${nonce()}","ext":${JSON.stringify(ext)}}`,
      ),
    () => text('a well-formed hello', JSON.stringify({ type: 'hello', v: WIRE_VERSION, nonce: nonce(), ext })),
    () => text('a well-formed pair', JSON.stringify({ type: 'pair', v: WIRE_VERSION, nonce: nonce(), ext })),
    () => text('a proof that proves nothing', JSON.stringify({ type: 'proof', proof: nonce() })),
    () =>
      text(
        'number soup',
        `[${Array.from({ length: 100 }, () => pick(['1e999', '-0', '0x10', 'NaN', '1', '.5'])).join(',')}]`,
      ),
  ];

  return { next: (): Junk => pick(makers)(), kinds: makers.length };
}
