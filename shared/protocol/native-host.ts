// What the extension and the native host say over native messaging, declared once for both ends: one request, and
// its answer — the pairing secret and the bridge port, or why there is none.
import { z } from 'zod';

export const hostRequest = z.strictObject({ type: z.literal('pairing') });
export type HostRequest = z.infer<typeof hostRequest>;

/** `revoked`: the person revoked the pairing in the app; the host hands out no secret until they pair again there. */
const HOST_REFUSALS = [
  'origin_not_allowed',
  'unsupported_message',
  'message_too_large',
  'secret_unavailable',
  'revoked',
] as const;

export const hostCredentials = z.object({
  secret: z.string().min(1).max(256),
  port: z.number().int().min(1).max(65_535),
});

export const hostReply = z.union([hostCredentials, z.object({ error: z.enum(HOST_REFUSALS) })]);
export type HostReply = z.infer<typeof hostReply>;
