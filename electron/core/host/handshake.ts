// The core socket's handshake, both ends: each side proves it holds core.json's token without sending it (HMAC over
// both sides' fresh nonces), the core answers one ok line, and from then on the connection is plain JSON-RPC lines.
// Mutual, because on Windows a named pipe's name can be taken first by another local user: a relay must not hand
// that impostor the token, nor take its answers for the core's.
import { createHmac, randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { z } from 'zod';
import { TOOL_CAPS, type ToolCap } from '../../../shared/policy/tool-caps.js';
import { sameSecret } from '../bridge/secret-compare.js';
import { type FirstLineLimits, readFirstLine } from './first-line.js';

/** What each side allows the other per handshake line: one short line, soon. */
export const AUTH_LIMITS: FirstLineLimits = { maxBytes: 1024, timeoutMs: 2_000 };

const NONCE_BYTES = 32;
const nonce = z.string().regex(/^[\w-]{43}$/);
const HelloSchema = z.strictObject({ hello: nonce });
const ChallengeSchema = z.strictObject({ nonce, proof: z.string().max(64) });
// A relay names the opt-in tools its client was configured with (`--caps`): its session lists them too.
const ProofSchema = z.strictObject({
  proof: z.string().max(64),
  caps: z.array(z.enum(TOOL_CAPS)).max(TOOL_CAPS.length).optional(),
});
const OkSchema = z.strictObject({ ok: z.literal(true) });

export const OK_LINE = `${JSON.stringify({ ok: true })}\n`;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The core's side: resolves with the opt-in capabilities the relay asks for, once the peer has proved it holds
 * `token`; rejects (the caller drops it) otherwise.
 */
export async function admitRelay(socket: Socket, token: string): Promise<ToolCap[]> {
  const hello = parseLine(HelloSchema, await readFirstLine(socket, AUTH_LIMITS));
  if (!hello) throw new Error('its first line is not a relay hello');
  const coreNonce = freshNonce();
  socket.write(line({ nonce: coreNonce, proof: proofOf(token, 'core', hello.hello, coreNonce) }));
  const answer = parseLine(ProofSchema, await readFirstLine(socket, AUTH_LIMITS));
  if (!answer || !sameSecret(answer.proof, proofOf(token, 'relay', coreNonce, hello.hello)))
    throw new Error("it did not prove it holds this core's token");
  socket.write(OK_LINE);
  return answer.caps ?? [];
}

/** The relay's side: resolves once the core has proved it holds `token` and accepted our proof; rejects naming why. */
export async function greetCore(socket: Socket, token: string, caps: readonly ToolCap[] = []): Promise<void> {
  const relayNonce = freshNonce();
  socket.write(line({ hello: relayNonce }));
  const challenge = parseLine(ChallengeSchema, await readFirstLine(socket, AUTH_LIMITS));
  if (!challenge || !sameSecret(challenge.proof, proofOf(token, 'core', relayNonce, challenge.nonce))) {
    throw new Error("the server on this address does not hold core.json's token: it is not this data dir's core");
  }
  const proof = proofOf(token, 'relay', challenge.nonce, relayNonce);
  socket.write(line(caps.length > 0 ? { proof, caps: [...caps] } : { proof }));
  if (!parseLine(OkSchema, await readFirstLine(socket, AUTH_LIMITS)))
    throw new Error('the core did not accept this relay');
}

// The side's name is part of what is signed: a proof one side made can never be played back as the other's.
function proofOf(token: string, side: 'core' | 'relay', first: string, second: string): string {
  return createHmac('sha256', token).update(`chrome-mcp ${side}|${first}|${second}`).digest('base64url');
}

function freshNonce(): string {
  return randomBytes(NONCE_BYTES).toString('base64url');
}

function line(value: Record<string, string | string[]>): string {
  return `${JSON.stringify(value)}\n`;
}

function parseLine<T>(schema: z.ZodType<T>, text: string): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
