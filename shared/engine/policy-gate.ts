// The engine's side of the site policy: one judgement of a frame, a tab or a URL against the policy as it stands now.
import { deny, type Decision } from '../policy/decision.js';
import { policyError } from '../protocol/policy-error.js';
import { evaluatePolicy } from '../policy/evaluate.js';
import type { AccessLevel } from '../policy/levels.js';
import type { Policy } from '../policy/policy.js';
import { siteLabel, siteOf } from '../policy/site.js';

/** Where a document is: its URL, and its security origin when the browser told it (about:blank and srcdoc take one). */
export interface DocumentPlace {
  url: string;
  origin?: string | undefined;
}

export class PolicyGate {
  constructor(private readonly policy: () => Policy) {}

  current(): Policy {
    return this.policy();
  }

  /** Judges a document by its own origin (see decideBy), against the policy as it stands now. */
  decide(place: DocumentPlace, need: AccessLevel): Decision {
    return decideBy(this.policy(), place, need);
  }

  /** Throws the policy's refusal for the document, prefixed with `where` (e.g. "frame f2"), or returns. */
  require(place: DocumentPlace, need: AccessLevel, where?: string): void {
    const decision = this.decide(place, need);
    if (decision.allowed) return;
    const error = policyError(decision);
    if (where === undefined) throw error;
    throw error.reworded(`${where}: ${error.message}`);
  }

  allows(place: DocumentPlace, need: AccessLevel): boolean {
    return this.decide(place, need).allowed;
  }

  /**
   * `allows` for the many entries of one log read, against the policy as it stands when the read starts. A log holds
   * hundreds of entries from a handful of documents, and each judgement parses a URL and walks the blind list: ~10 µs,
   * 3 ms for a 300-line console (measured, Dec 2026). So each document is judged once per read, never kept past it.
   */
  judgeEach(need: AccessLevel): (place: DocumentPlace) => boolean {
    const policy = this.policy();
    const judged = new Map<string, boolean>();
    return (place) => {
      // A URL holds no newline, so the two parts never run together.
      const key = `${place.url}\n${place.origin ?? ''}`;
      let allowed = judged.get(key);
      if (allowed === undefined) {
        allowed = decideBy(policy, place, need).allowed;
        judged.set(key, allowed);
      }
      return allowed;
    };
  }

  /**
   * A tab not yet attached, known only by the URL its tab strip shows. A blank document holds nothing yet, so it passes
   * here, as does a tab with no URL at all (a popup before its first navigation); once attached, every frame is judged
   * by its real origin.
   */
  requireBeforeAttach(url: string, where: string): void {
    if (url === '' || siteOf(url).kind === 'inherits') return;
    this.require({ url }, 'read', where);
  }
}

/** A tab as the model may see it in a listing: a tab on a site it may not read shows that site alone, no title or path. */
export function maskedTab<T extends { url: string; title: string }>(gate: PolicyGate, tab: T): T {
  if (siteOf(tab.url).kind === 'inherits' || gate.allows({ url: tab.url }, 'read')) return tab;
  const site = siteOf(tab.url);
  return { ...tab, title: '', url: site.kind === 'web' ? `${site.scheme}://${siteLabel(site)}` : siteLabel(site) };
}

/** A document with nothing of its own: no URL yet, or about:blank / about:srcdoc whose origin is opaque (a fresh document, or a sandboxed one, then its maker decides). */
export function isOpaqueBlank(place: DocumentPlace): boolean {
  // No URL at all: the frame has committed no document yet (Chrome reports that as ""), so there is nothing in it.
  if (place.url === '') return !hasOrigin(place);
  return siteOf(place.url).kind === 'inherits' && !hasOrigin(place);
}

/**
 * Judges a document by its own origin: an about:blank or srcdoc frame stands where its origin does. A blank document
 * with no origin of its own (a new tab before its first navigation) holds nothing to read or act on, so it passes;
 * it never runs our scripts, which from there could still send requests carrying the person's cookies.
 */
function decideBy(policy: Policy, place: DocumentPlace, need: AccessLevel): Decision {
  if (isOpaqueBlank(place) && need !== 'trusted') return { allowed: true, level: 'none', site: place.url };
  // A tab still opening its first document: no script runs there, and the refusal says to wait rather than "bad URL".
  if (place.url === '' && !hasOrigin(place)) return deny({ reason: 'no_page', site: '', have: 'none', need });
  return evaluatePolicy(judgedUrl(place), need, policy);
}

function hasOrigin(place: DocumentPlace): boolean {
  // Chrome reports an opaque origin as "null" or "://".
  return place.origin !== undefined && place.origin !== 'null' && place.origin !== '://' && place.origin !== '';
}

function judgedUrl(place: DocumentPlace): string {
  if (place.url !== '' && siteOf(place.url).kind !== 'inherits') return place.url;
  // An opaque origin has no site: judged as the blank URL it is, it is refused.
  return hasOrigin(place) ? place.origin! : place.url;
}
