// Does a real keychain answer here? The keychain tests run when one does and skip, saying why, when none does;
// CI starts one (see .ci/run) and sets CHROME_MCP_EXPECT_KEYCHAIN=1, which turns a missing keychain into a failure.
import { randomBytes } from 'node:crypto';
import { openKeychain } from '../../../electron/core/pairing/keychain.js';

export const EXPECT_KEYCHAIN = process.env['CHROME_MCP_EXPECT_KEYCHAIN'] === '1';

/** Why no keychain can be used here, or undefined when one stores and returns a value. */
export async function keychainUnavailable(): Promise<string | undefined> {
  const keychain = await openKeychain();
  if (!keychain) return 'keytar could not load (native module missing: on Debian it builds with libsecret-1-dev)';
  const account = `probe-${randomBytes(6).toString('hex')}`;
  try {
    await keychain.set(account, 'probe');
    const back = await keychain.get(account);
    return back === 'probe' ? undefined : 'the keychain accepted a value and gave back another';
  } catch (error) {
    return `no secret service answers (${error instanceof Error ? error.message : String(error)}); CI runs one: dbus + gnome-keyring-daemon --unlock --components=secrets`;
  } finally {
    await keychain.remove(account).catch(() => undefined);
  }
}
