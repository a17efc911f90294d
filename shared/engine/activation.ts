// Judges, before an act sends input, what activating an element would open that no guard can hold afterwards: a new
// window (a target=_blank link or form, a middle- or modifier-click on a link) at a refused site, or a download
// (`<a download>`) while downloads are off. chrome.debugger cannot hold a new tab's first request, so there the only
// way that request never leaves is not to click.
import type { ToolError } from '../protocol/errors.js';
import type { Denied } from '../policy/decision.js';
import { policyError } from '../protocol/policy-error.js';
import { evaluateDownload } from '../policy/evaluate.js';
import type { PageContext } from './page-context.js';
import type { ElementHandle } from './targets.js';

/**
 * Throws the policy's refusal when activating `handle` would open a new window at a site the person did not allow, or
 * download while downloads are off. `newWindow`: the act itself opens one (a middle click, Ctrl/Cmd/Shift held).
 */
export async function refuseWhatActivationOpens(
  page: PageContext,
  handle: ElementHandle,
  opts: { newWindow?: boolean } = {},
): Promise<void> {
  const opens = await page.frames.call(handle.frame, 'opensOnActivation', [opts.newWindow === true], {
    handles: [handle.objectId],
  });
  if (!opens) return;
  if (opens.download) {
    const decision = evaluateDownload([opens.url], page.gate.current());
    if (!decision.allowed) throw refusal(decision, `it would download ${opens.url}`);
  }
  if (opens.newWindow) {
    const decision = page.gate.decide({ url: opens.url }, 'read');
    if (!decision.allowed) throw refusal(decision, `it would open a new window at ${decision.site}`);
  }
}

function refusal(decision: Denied, what: string): ToolError {
  const error = policyError(decision);
  return error.reworded(`Not activated: ${what}. ${error.message}`);
}
