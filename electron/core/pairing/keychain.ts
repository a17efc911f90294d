// The OS keychain through keytar (macOS Keychain, Windows Credential Vault, the Secret Service on Linux), or
// undefined where keytar cannot load; every call has a deadline, because a keychain may never answer.
import { setTimeout as sleep } from 'node:timers/promises';

export const KEYCHAIN_SERVICE = 'chrome-mcp';

/**
 * A locked keyring can wait on an unlock prompt nobody sees (a headless box whose session bus starts gnome-keyring);
 * past this the keychain counts as not answering, and the caller falls back or fails closed.
 */
const KEYCHAIN_DEADLINE_MS = 10_000;

export interface Keychain {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  remove(account: string): Promise<void>;
}

async function withDeadline<T>(what: string, call: Promise<T>): Promise<T> {
  const abort = new AbortController();
  const late = sleep(KEYCHAIN_DEADLINE_MS, undefined, { signal: abort.signal, ref: false }).then(() => {
    throw new Error(`the keychain did not answer ${what} within ${KEYCHAIN_DEADLINE_MS / 1000} s`);
  });
  try {
    return await Promise.race([call, late]);
  } finally {
    abort.abort();
    late.catch(() => undefined);
  }
}

let loaded: Promise<Keychain | undefined> | undefined;

/** keytar is a native module: a platform it was not built for, or a missing libsecret, means no keychain. */
export function openKeychain(): Promise<Keychain | undefined> {
  loaded ??= import('keytar').then(
    ({ default: keytar }): Keychain => ({
      get: (account) => withDeadline('a read', keytar.getPassword(KEYCHAIN_SERVICE, account)),
      set: (account, secret) => withDeadline('a write', keytar.setPassword(KEYCHAIN_SERVICE, account, secret)),
      remove: async (account) => {
        await withDeadline('a delete', keytar.deletePassword(KEYCHAIN_SERVICE, account));
      },
    }),
    () => undefined,
  );
  return loaded;
}
