// What the popup may ask the worker, decoded with zod on arrival like every other boundary.
import { z } from 'zod';

export const popupRequest = z.discriminatedUnion('type', [
  /** Wakes the worker, which dials if it is not linked; `force` also retries a refused or taken-over link. */
  z.strictObject({ type: z.literal('connect'), force: z.boolean() }),
  z.strictObject({ type: z.literal('pair'), code: z.string().trim().min(1).max(32) }),
]);
export type PopupRequest = z.infer<typeof popupRequest>;

export const pairReply = z.object({ ok: z.boolean(), message: z.string() });
export type PairReply = z.infer<typeof pairReply>;
