// Judges, before an act sends input, what activating an element would open that no guard can hold afterwards: a new
// window (a target=_blank link or form, a middle- or modifier-click on a link) at a refused site, or a download
// (`<a download>`) while downloads are off. chrome.debugger cannot hold a new tab's first request, so there the only
// way that request never leaves is not to click.
import type { ToolError } from '../protocol/errors.js';
import type { Denied } from '../policy/decision.js';
import { policyError } from '../protocol/policy-error.js';
import { evaluateDownload } from '../policy/evaluate.js';
import { aim, topAim, type Aim } from './geometry.js';
import type { Opens } from './page/activation.js';
import type { PageReturn } from './page/library.js';
import type { PageContext } from './page-context.js';
import { callOnElement, type ElementHandle } from './targets.js';

export interface ActivationOptions {
  /** The act itself opens a new window: a middle click, Ctrl/Cmd/Shift held. */
  newWindow?: boolean;
}

/**
 * Where to click `handle` to activate it, once what that opens has been judged (refused: the policy's error, and
 * nothing was scrolled or sent). A main-frame element is judged and aimed at in one page call.
 */
export async function aimToActivate(
  page: PageContext,
  handle: ElementHandle,
  opts: ActivationOptions = {},
): Promise<Aim> {
  if (handle.frame.parentFrameId !== undefined) {
    await refuseWhatActivationOpens(page, handle, opts);
    return aim(page, handle);
  }
  return activationAimed(page, handle, await callOnElement(page, handle, 'activationAim', [opts.newWindow === true]));
}

/** The aim once activationAim answered for a main-frame element: its refusal, or its point (aimed now if it opens something). */
export async function activationAimed(
  page: PageContext,
  handle: ElementHandle,
  both: PageReturn<'activationAim'>,
): Promise<Aim> {
  if (both.opens) refuseOpening(page, both.opens);
  return topAim(both.aim ?? (await callOnElement(page, handle, 'aimPoint', [true])));
}

/**
 * Throws the policy's refusal when activating `handle` would open a new window at a site the person did not allow, or
 * download while downloads are off.
 */
async function refuseWhatActivationOpens(
  page: PageContext,
  handle: ElementHandle,
  opts: ActivationOptions,
): Promise<void> {
  const opens = await callOnElement(page, handle, 'opensOnActivation', [opts.newWindow === true]);
  if (opens) refuseOpening(page, opens);
}

function refuseOpening(page: PageContext, opens: Opens): void {
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
