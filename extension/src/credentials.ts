// Where the bridge's port and pairing secret come from: chrome.storage.local, else the native host that the core
// installed; a code typed into the popup is the manual way (see bridge-client.ts).
import { NATIVE_HOST_NAME } from '../../shared/protocol/extension-id.js';
import { hostCredentials, hostReply, type HostRequest } from '../../shared/protocol/native-host.js';
import { DEFAULT_BRIDGE_PORT } from '../../shared/protocol/wire.js';

const STORAGE_KEY = 'bridge';
const stored = hostCredentials.partial();

export interface Credentials {
  port: number;
  secret?: string;
}

export async function loadCredentials(): Promise<Credentials> {
  const { [STORAGE_KEY]: raw } = await chrome.storage.local.get(STORAGE_KEY);
  // Anything unreadable there is as good as nothing: pairing starts over rather than dialling with garbage.
  const parsed = stored.safeParse(raw ?? {});
  const value = parsed.success ? parsed.data : {};
  return value.secret === undefined
    ? { port: value.port ?? DEFAULT_BRIDGE_PORT }
    : { port: value.port ?? DEFAULT_BRIDGE_PORT, secret: value.secret };
}

export async function storeCredentials(update: Partial<Credentials>): Promise<void> {
  const current = await loadCredentials();
  await chrome.storage.local.set({ [STORAGE_KEY]: { ...current, ...update } });
}

/**
 * Asks the native host for the core's secret and port: 'revoked' when the person revoked the pairing in the app (the
 * host then hands out nothing until they pair again there); undefined when no host is installed or it has none to give.
 */
export async function askNativeHost(): Promise<Required<Credentials> | 'revoked' | undefined> {
  const request: HostRequest = { type: 'pairing' };
  const reply: unknown = await chrome.runtime.sendNativeMessage(NATIVE_HOST_NAME, request).catch(() => undefined);
  const parsed = hostReply.safeParse(reply);
  if (!parsed.success) return undefined;
  if ('secret' in parsed.data) return parsed.data;
  return parsed.data.error === 'revoked' ? 'revoked' : undefined;
}

/** True when a change to chrome.storage.local touched the credentials (the popup, a test, or pairing wrote them). */
export function credentialsChanged(changes: Record<string, chrome.storage.StorageChange>): boolean {
  return STORAGE_KEY in changes;
}
