// The wire between the core (WebSocket server on loopback) and the extension (client): frames, versions, guards.
// Both ends decode every frame with these schemas; anything that does not parse is dropped, never half-read.
import { z } from 'zod';
import { PolicyTransferSchema } from '../policy/transfer.js';
import { NONCE_PATTERN, PROOF_PATTERN } from './bridge-proof.js';
import { ERROR_CODES, type ErrorCode } from './errors.js';
import { MAX_FILE_BYTES, MAX_UPLOAD_FILES, OPERATIONS, type AgentContext } from './operations.js';

/** v2: mutual authentication (both sides prove by HMAC over fresh nonces; v1 sent the secret or code in clear). */
export const WIRE_VERSION = 2;
export const DEFAULT_BRIDGE_PORT = 38017;
/** Largest frame either side accepts; a full-page screenshot fits, a memory-exhaustion attempt does not. */
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;

/** Operations the extension executes: every executor operation plus a liveness probe. */
export const WIRE_OPERATIONS = [...OPERATIONS, 'ping'] as const;
export type WireOperation = (typeof WIRE_OPERATIONS)[number];

const extensionInfo = z.strictObject({
  id: z.string().max(64),
  version: z.string().max(32),
  chrome: z.string().max(64),
});

const errorCode = z.string().refine((code): code is ErrorCode => Object.hasOwn(ERROR_CODES, code));

// base64 of at most MAX_FILE_BYTES: four characters for every three bytes.
const pageFile = z.strictObject({
  name: z.string().max(1000),
  mimeType: z.string().max(200),
  base64: z.string().max(Math.ceil(MAX_FILE_BYTES / 3) * 4),
  url: z.string().max(8000).optional(),
  disposition: z.string().max(2000).optional(),
});

const operationResult = z.strictObject({
  text: z.string(),
  image: z.strictObject({ data: z.string(), mimeType: z.enum(['image/jpeg', 'image/png']) }).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  file: pageFile.optional(),
});

const nonce = z.string().regex(NONCE_PATTERN);
const proof = z.string().regex(PROOF_PATTERN);

// ---- extension → core ----
// The handshake, in order: hello (or pair) with the extension's nonce → challenge: the core's nonce and its proof →
// proof: the extension's → (paired, for a pair) welcome, policy. The extension proves nothing to a server that has not
// proved first, and neither proof is any use on another connection.
/** Opens a connection keyed by the long-lived pairing secret; it carries no secret, only a fresh nonce. */
export const helloFrame = z.strictObject({
  type: z.literal('hello'),
  v: z.literal(WIRE_VERSION),
  nonce,
  ext: extensionInfo,
});
/** Manual pairing by the one-time code the person typed into the popup; the code itself is never sent. */
export const pairFrame = z.strictObject({
  type: z.literal('pair'),
  v: z.literal(WIRE_VERSION),
  nonce,
  ext: extensionInfo,
});
/** The extension's proof, sent only after the core's challenge proved the core holds the same key. */
export const proofFrame = z.strictObject({ type: z.literal('proof'), proof });
export const resultFrame = z.strictObject({
  type: z.literal('result'),
  id: z.string().max(64),
  ok: z.literal(true),
  result: operationResult,
});
export const errorFrame = z.strictObject({
  type: z.literal('result'),
  id: z.string().max(64),
  ok: z.literal(false),
  // `data` carries what the core acts on (a policy refusal's site and level, so it can ask the person).
  error: z.strictObject({
    code: errorCode,
    message: z.string(),
    next: z.string().optional(),
    data: z.record(z.string(), z.unknown()).optional(),
  }),
});
export const pongFrame = z.strictObject({ type: z.literal('pong'), ts: z.number() });
/** Progress of a long command (navigation waits, wait_for, batch), relayed to the MCP client as notifications. */
export const progressFrame = z.strictObject({
  type: z.literal('progress'),
  id: z.string().max(64),
  message: z.string().max(1000),
  done: z.number().optional(),
  total: z.number().optional(),
});
/** The person pressed Esc in a tab the agent was acting in: the core stops the agent with this message. */
export const stopFrame = z.strictObject({ type: z.literal('stop'), message: z.string().max(500) });

// Discriminated by `type` (a result's two shapes by `ok`), so a frame is checked against its own schema only: a plain
// union tried each one before it in turn, building every failure's issues, on every frame (0.2–0.4 ms an answer).
export const extensionFrame = z.discriminatedUnion('type', [
  helloFrame,
  pairFrame,
  proofFrame,
  z.discriminatedUnion('ok', [resultFrame, errorFrame]),
  pongFrame,
  progressFrame,
  stopFrame,
]);
export type ExtensionFrame = z.infer<typeof extensionFrame>;

// ---- core → extension ----
/**
 * The core's answer to a hello or pair: its own nonce and its proof over both. For a pair it also names the salt the
 * code's key was derived with (see CODE_KDF), which is no secret.
 */
export const challengeFrame = z.strictObject({
  type: z.literal('challenge'),
  nonce,
  proof,
  salt: z
    .string()
    .regex(/^[\w-]{22}$/)
    .optional(),
});
export const welcomeFrame = z.strictObject({
  type: z.literal('welcome'),
  v: z.literal(WIRE_VERSION),
  /** Names this connection; the extension stamps it into its tab handles so a handle from another one is stale. */
  session: z.string().max(16),
  heartbeatMs: z.number(),
});
/**
 * Sent once after a successful `pair`: the new long-lived secret, sealed under the code's key and this connection's
 * nonces (wrapSecret), so only the holder of the code can read it and nobody else can slip in one of their own.
 */
export const pairedFrame = z.strictObject({ type: z.literal('paired'), wrapped: z.string().regex(/^[\w-]{1,512}$/) });
/**
 * Why the core closed the connection: `bad_frame` = the first frame was not a hello or pair it could read;
 * `bad_secret` / `bad_code` = it holds no such secret or live code, or the extension's proof did not match.
 */
export const unauthorizedFrame = z.strictObject({
  type: z.literal('unauthorized'),
  reason: z.enum(['bad_secret', 'bad_code', 'bad_version', 'timeout', 'bad_origin', 'replaced', 'bad_frame']),
});
/** The most MCP sessions a command names as live; beyond it the oldest others are left out (see agentOnWire). */
const MAX_LIVE_AGENTS = 64;
const agentId = z.string().max(16);
export const commandFrame = z.strictObject({
  type: z.literal('command'),
  id: z.string().max(64),
  op: z.enum(WIRE_OPERATIONS),
  args: z.record(z.string(), z.unknown()),
  timeoutMs: z.number(),
  /** The MCP session asking, whose current tab the command uses (see OperationContext). */
  agent: z
    .strictObject({ id: agentId, live: z.array(agentId).max(MAX_LIVE_AGENTS), devtools: z.boolean().optional() })
    .optional(),
  /** An upload's files, which the person's Chrome may not read from disk itself (see OperationContext.uploads). */
  uploads: z.array(pageFile).max(MAX_UPLOAD_FILES).optional(),
});
export const cancelFrame = z.strictObject({ type: z.literal('cancel'), id: z.string().max(64) });
export const pingFrame = z.strictObject({ type: z.literal('ping'), ts: z.number() });
/**
 * The site policy, whole: sent right after `welcome` (before any command) and again on every change. The extension
 * enforces it too, so a page refused by the core's check is refused again where the page is.
 */
export const policyFrame = z.strictObject({ type: z.literal('policy'), policy: PolicyTransferSchema });

export const coreFrame = z.discriminatedUnion('type', [
  challengeFrame,
  welcomeFrame,
  pairedFrame,
  unauthorizedFrame,
  commandFrame,
  cancelFrame,
  pingFrame,
  policyFrame,
]);
export type CoreFrame = z.infer<typeof coreFrame>;

/** WebSocket close codes the two ends use, so the extension knows whether to retry or to ask for pairing. */
export const CLOSE_CODES = {
  unauthorized: 4401,
  replaced: 4409,
  heartbeat: 4408,
} as const;

/**
 * An agent as a command carries it: itself and the newest of the others, within the frame's bound. An older session
 * left out loses its current tab in the extension, which beats a frame the extension drops as malformed.
 */
export function agentOnWire(agent: AgentContext): NonNullable<z.infer<typeof commandFrame>['agent']> {
  const others = agent.live.filter((id) => id !== agent.id);
  const live = [agent.id, ...others.slice(-(MAX_LIVE_AGENTS - 1))];
  return agent.devtools ? { id: agent.id, live, devtools: true } : { id: agent.id, live };
}

/** Parses one text frame; undefined when it is not JSON or not a frame of the expected kind. */
export function decodeFrame<T>(schema: z.ZodType<T>, text: string): T | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
