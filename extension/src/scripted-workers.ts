// Once an agent's script ran in a driven tab, the workers no session of the tab reaches (service and shared workers,
// whose requests belong to no tab) reach the script's origin only, until the tab is no longer driven: a shared worker
// the script starts, or a message it posts to the site's service worker, sends nowhere else. The fallback holds the same
// workers from the browser's side (electron/core/fallback/worker-targets.ts); chrome.debugger hears of no worker as it
// starts, so declarativeNetRequest holds them in the network stack.
import { originRegex } from './hold-rules.js';
import type { RuleSet } from './session-rules.js';

// These rules match only requests of no tab, which no other hold's rules do: their priorities are their own.
const BLOCK_PRIORITY = 1;
const ALLOW_PRIORITY = 2;

export class ScriptedWorkers {
  /** Per driven tab, the origins an agent's script ran in. */
  private readonly scripted = new Map<number, Set<string>>();

  constructor(private readonly rules: RuleSet) {}

  /** A script ran in `origin` in `tabId` (undefined: one with no web origin, whose workers no rule can name). */
  scriptRan(tabId: number, origin: string | undefined): void {
    if (origin === undefined || originRegex(origin) === undefined) return;
    const origins = this.scripted.get(tabId) ?? new Set<string>();
    if (origins.has(origin)) return;
    this.scripted.set(tabId, origins.add(origin));
    this.update();
  }

  /** The tab is no longer driven: what the script left there is gone with its attachment. */
  ended(tabId: number): void {
    if (this.scripted.delete(tabId)) this.update();
  }

  private update(): void {
    const origins = [...new Set([...this.scripted.values()].flatMap((each) => [...each]))].sort();
    void this.rules.replace(origins.flatMap(workerRules)).catch(() => undefined);
  }
}

/** A worker of `origin` (a blob: one's is its creator's) reaches `origin` and nothing else. */
function workerRules(origin: string): object[] {
  const condition = { tabIds: [chrome.tabs.TAB_ID_NONE], initiatorDomains: [new URL(origin).hostname] };
  return [
    { priority: BLOCK_PRIORITY, action: { type: 'block' }, condition },
    {
      priority: ALLOW_PRIORITY,
      action: { type: 'allow' },
      condition: { ...condition, regexFilter: originRegex(origin), isUrlFilterCaseSensitive: false },
    },
  ];
}
