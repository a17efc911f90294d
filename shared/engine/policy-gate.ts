// The engine's side of the site policy: one judgement of a frame, a tab or a URL against the policy as it stands now.
import { deny, type Decision } from '../policy/decision.js';
import { policyError } from '../protocol/policy-error.js';
import { evaluatePolicy } from '../policy/evaluate.js';
import type { AccessLevel } from '../policy/levels.js';
import type { Policy } from '../policy/policy.js';
import { siteLabel, siteOf } from '../policy/site.js';
import { keepNewest } from './keep-newest.js';

/*
 * Judgements kept per policy: a policy is replaced whole, never changed in place (policy-store.ts, policy-holder.ts), so
 * one judged against it stays true for as long as it is the policy. A call judges the same few documents several times
 * (the frame, the tab listing, the script's trail): 0.1–0.3 ms a call on this box, parsing the URL and walking the blind
 * list each time. Bounded, as a long session meets many documents.
 */
const KEPT_JUDGEMENTS = 512;

/** Where a document is: its URL, and its security origin when the browser told it (about:blank and srcdoc take one). */
export interface DocumentPlace {
  url: string;
  origin?: string | undefined;
}

export class PolicyGate {
  private judged: { policy: Policy; decisions: Map<string, Decision> } | undefined;

  constructor(private readonly policy: () => Policy) {}

  current(): Policy {
    return this.policy();
  }

  /** Judges a document by its own origin (see decideBy), against the policy as it stands now. */
  decide(place: DocumentPlace, need: AccessLevel): Decision {
    return this.decideUnder(this.policy(), place, need);
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
   * `allows` for the many entries of one log read, against the policy as it stands when the read starts: a log holds
   * hundreds of entries from a handful of documents, each judged once (3 ms for a 300-line console, judged per entry).
   */
  judgeEach(need: AccessLevel): (place: DocumentPlace) => boolean {
    const policy = this.policy();
    return (place) => this.decideUnder(policy, place, need).allowed;
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

  /** decideBy against `policy`, judged once per document and need while `policy` is the one in force. */
  private decideUnder(policy: Policy, place: DocumentPlace, need: AccessLevel): Decision {
    if (this.judged?.policy !== policy) this.judged = { policy, decisions: new Map() };
    const { decisions } = this.judged;
    // A URL holds no newline, so the parts never run together.
    const key = `${need}\n${place.url}\n${place.origin ?? ''}`;
    let decision = decisions.get(key);
    if (decision === undefined) {
      // Frozen: the same judgement is handed to every caller.
      decision = Object.freeze(decideBy(policy, place, need));
      decisions.set(key, decision);
      keepNewest(decisions, KEPT_JUDGEMENTS);
    }
    return decision;
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
