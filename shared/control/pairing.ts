// What the panel's connection and pairing screen reads: whether the extension is paired and connected, and the
// one-time code it shows the person. The code itself appears only in `pairing.code`'s answer: never in a status,
// an activity event or a log.
import { z } from 'zod';

/** What an activity event of type `pairing` reports. */
export const PAIRING_CHANGES = ['code-issued', 'connected', 'disconnected', 'revoked'] as const;

export const PairingStatusSchema = z.strictObject({
  /** A pairing secret exists (as secret.json records it: the keychain is not asked). */
  paired: z.boolean(),
  /** Where the secret lives. */
  store: z.enum(['keychain', 'file', 'none']),
  /** The extension is linked to this core right now. */
  connected: z.boolean(),
  /** Which Chrome is linked (its version, as the extension reports it) and since when; null while none is. */
  browser: z.strictObject({ chrome: z.string(), connectedAt: z.number() }).nullable(),
  /** A one-time code still waiting to be typed into the extension, and until when it works; null when none is. */
  code: z.strictObject({ expires: z.number() }).nullable(),
  /**
   * When the pairing was revoked, while that revoke stands: the native host then gives the extension no secret, so it
   * stays unpaired until the person pairs again (asking for a code lifts it). Null when no revoke stands.
   */
  revokedAt: z.number().nullable(),
  /** The built extension's folder, to pick in chrome://extensions → Load unpacked; null when none is built there. */
  extensionPath: z.string().nullable(),
});
export type PairingStatus = z.infer<typeof PairingStatusSchema>;

export const PairingCodeSchema = z.strictObject({
  /** `XXXX-XXXX`, for the person to type into the extension's popup. */
  code: z.string().regex(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/),
  expires: z.number(),
});
export type PairingCode = z.infer<typeof PairingCodeSchema>;
