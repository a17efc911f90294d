// The link state the popup shows, kept in chrome.storage.session: it outlives a worker restart and the popup watches it.
import { z } from 'zod';

const linkStatus = z.object({
  /**
   * `revoked`: the native host says the person revoked the pairing in the app, which stands until they pair again.
   * `impostor`: what answered on the port failed to prove it holds the pairing secret; it was told nothing.
   * `other_version`: the app could not read our hello (another wire version); the slow alarm keeps trying.
   */
  state: z.enum([
    'connecting',
    'connected',
    'not_paired',
    'revoked',
    'unauthorized',
    'impostor',
    'other_version',
    'replaced',
    'disconnected',
  ]),
  port: z.number().optional(),
  /** One line for the person: what went wrong, or what to do. */
  detail: z.string().optional(),
  /** When this state began (ms since the epoch), where the worker paces itself by it. */
  since: z.number().optional(),
});
export type LinkStatus = z.infer<typeof linkStatus>;

const STORAGE_KEY = 'link';

export async function readLinkStatus(): Promise<LinkStatus> {
  const { [STORAGE_KEY]: raw } = await chrome.storage.session.get(STORAGE_KEY);
  const parsed = linkStatus.safeParse(raw);
  return parsed.success ? parsed.data : { state: 'disconnected' };
}

export function writeLinkStatus(status: LinkStatus): Promise<void> {
  return chrome.storage.session.set({ [STORAGE_KEY]: status });
}

/** The new status when a chrome.storage.session change carries one. */
export function linkStatusChange(changes: Record<string, chrome.storage.StorageChange>): LinkStatus | undefined {
  const change = changes[STORAGE_KEY];
  if (!change) return undefined;
  const parsed = linkStatus.safeParse(change.newValue);
  return parsed.success ? parsed.data : undefined;
}
