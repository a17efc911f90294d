// The built-in blind list: sites nothing reads or acts on whatever the rules say, because one mistaken read there costs too much.
import { parseSitePattern, patternMatches, type SitePattern } from './pattern.js';
import type { Site } from './site.js';

/*
 * Representative, not exhaustive: the person adds their own bank with a `blocked` rule. Each entry covers the
 * host and its subdomains. A whole registrable domain is listed where the bank serves online banking from it,
 * since marketing pages and login pages share cookies there.
 */
/** The built-in list by group, as the docs and the policy editor show it. */
export const BLIND_SITES = {
  'a bank': [
    // United States
    'chase.com',
    'bankofamerica.com',
    'wellsfargo.com',
    'citi.com',
    'citibank.com',
    'usbank.com',
    'capitalone.com',
    'pnc.com',
    'truist.com',
    'tdbank.com',
    'ally.com',
    'schwab.com',
    'fidelity.com',
    'vanguard.com',
    'americanexpress.com',
    'discover.com',
    'navyfederal.org',
    // United Kingdom
    'hsbc.co.uk',
    'barclays.co.uk',
    'lloydsbank.com',
    'natwest.com',
    'rbs.co.uk',
    'santander.co.uk',
    'halifax.co.uk',
    'nationwide.co.uk',
    'tsb.co.uk',
    'monzo.com',
    'starlingbank.com',
    // European Union
    'deutsche-bank.de',
    'commerzbank.de',
    'sparkasse.de',
    'postbank.de',
    'dkb.de',
    'ing.de',
    'ing.nl',
    'ing.com',
    'abnamro.nl',
    'rabobank.nl',
    'bnpparibas.fr',
    'mabanque.bnpparibas',
    'societegenerale.fr',
    'credit-agricole.fr',
    'bbva.es',
    'santander.es',
    'caixabank.es',
    'intesasanpaolo.com',
    'unicredit.it',
    'n26.com',
    'bunq.com',
  ],
  'a payment service': [
    'paypal.com',
    'paypal.me',
    'venmo.com',
    'cash.app',
    'wise.com',
    'revolut.com',
    'zellepay.com',
    'klarna.com',
    'pay.google.com',
    'dashboard.stripe.com',
    'checkout.stripe.com',
    'billing.stripe.com',
    'connect.stripe.com',
    'coinbase.com',
    'kraken.com',
  ],
  "a password manager's vault": [
    '1password.com',
    '1password.eu',
    '1password.ca',
    'vault.bitwarden.com',
    'vault.bitwarden.eu',
    'lastpass.com',
    'dashlane.com',
    'keepersecurity.com',
    'keepersecurity.eu',
    'pass.proton.me',
    'nordpass.com',
    'passwords.google.com',
  ],
  // An extension installed by the agent would outlive every rule. chrome.google.com is blinded whole because
  // /webstore is a path, and the policy's boundary is a site, never a path.
  'an extension store': ['chromewebstore.google.com', 'chrome.google.com', 'microsoftedge.microsoft.com'],
} as const;

export type BlindGroup = keyof typeof BLIND_SITES | 'a browser page' | "chrome-mcp's own page";

const BLIND_PATTERNS: readonly { pattern: SitePattern; group: BlindGroup }[] = Object.entries(BLIND_SITES).flatMap(
  ([group, sites]) => sites.map((site) => ({ pattern: parseSitePattern(site), group: group as BlindGroup })),
);

/** Why a site is blind, or undefined; `self` is chrome-mcp's own UI origins, which the core supplies at run time. */
export function blindGroup(site: Site, self: readonly SitePattern[]): BlindGroup | undefined {
  // Every browser page is blind, our own extension's included: its pages hold the pairing state.
  if (site.kind === 'browser') return 'a browser page';
  if (self.some((pattern) => patternMatches(pattern, site))) return "chrome-mcp's own page";
  return BLIND_PATTERNS.find(({ pattern }) => patternMatches(pattern, site))?.group;
}
