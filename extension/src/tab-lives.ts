// Whether a tab is still open: what a restarted worker asks of each tab its records name, as it heard no close meanwhile.
import type { z } from 'zod';

export function tabLives(tabId: number): Promise<boolean> {
  return chrome.tabs.get(tabId).then(
    () => true,
    () => false,
  );
}

/**
 * A record by tab a stopped worker left in session storage under `key`, read back: the entries of the tabs still open,
 * in its order; none when it is missing or does not parse.
 */
export async function liveTabEntries<T>(key: string, schema: z.ZodType<[number, T][]>): Promise<[number, T][]> {
  const { [key]: raw } = await chrome.storage.session.get(key);
  const parsed = schema.safeParse(raw ?? []);
  const lives = await Promise.all(
    (parsed.success ? parsed.data : []).map(async (entry) => ((await tabLives(entry[0])) ? [entry] : [])),
  );
  return lives.flat();
}
