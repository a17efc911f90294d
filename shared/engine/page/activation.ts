// In-page: what activating an element would load, and where, read before an act sends input (see ../activation.ts).
import type { AimPoint } from './aim.js';
import type { ControlVerdict } from './commit-control.js';

export interface Opens {
  url: string;
  /** It loads in a new window (a target naming none of this document's frames), not in this tab. */
  newWindow: boolean;
  /** A link that saves its target rather than showing it. */
  download: boolean;
}

/**
 * The link the element sits in, else the form its submit button sends; null when activating it loads nothing.
 * `forcedNewWindow`: the act opens any link in a new window (a middle click, Ctrl/Cmd/Shift held).
 */
export function opensOnActivation(element: Element, forcedNewWindow: boolean): Opens | null {
  const sameWindow = (target: string) =>
    target === '' ||
    ['_self', '_parent', '_top'].includes(target.toLowerCase()) ||
    document.querySelector(`iframe[name="${CSS.escape(target)}"]`) !== null;
  const baseTarget = document.querySelector('base[target]')?.getAttribute('target') ?? '';
  const link = element.closest('a[href], area[href]') as HTMLAnchorElement | HTMLAreaElement | null;
  if (link) {
    const target = link.getAttribute('target') ?? baseTarget;
    return {
      url: link.href,
      newWindow: forcedNewWindow || !sameWindow(target),
      download: link.hasAttribute('download'),
    };
  }
  const submitter = element.closest('button, input[type="submit"], input[type="image"]') as
    HTMLButtonElement | HTMLInputElement | null;
  const form = submitter?.form;
  if (!submitter || !form || (submitter.type !== 'submit' && submitter.type !== 'image')) return null;
  const target = submitter.getAttribute('formtarget') ?? form.getAttribute('target') ?? baseTarget;
  // formAction reads as the document's own URL when the button names no action of its own.
  return {
    url: submitter.hasAttribute('formaction') ? submitter.formAction : form.action,
    newWindow: !sameWindow(target),
    download: false,
  };
}

export interface ActivationAim {
  opens: Opens | null;
  /** Null when it could not be taken without scrolling (or failed) while `opens` waits to be judged. */
  aim: AimPoint | null;
  /** What the gate on risky acts reads of the element, when asked for (an act window judges its frame). */
  verdict?: ControlVerdict;
}

/**
 * What activating the element opens and where to click it, in one call for a main-frame element. One that opens
 * something must not move before the engine has judged that, so it is aimed at only where it already is; the
 * engine aims again (scrolling, or naming why it cannot) once it has allowed what opens. `judged`: the act window's
 * verdict is read in the same call, before anything scrolls, rather than in a round trip of its own.
 */
export function activationAim(element: Element, forcedNewWindow: boolean, judged = false): ActivationAim {
  const verdict = judged ? { verdict: __cm.controlVerdict(element) } : {};
  const opens = __cm.opensOnActivation(element, forcedNewWindow);
  if (!opens) return { opens, aim: __cm.aimPoint(element, true), ...verdict };
  try {
    return { opens, aim: __cm.aimPoint(element, 'refuse'), ...verdict };
  } catch {
    return { opens, aim: null, ...verdict };
  }
}
