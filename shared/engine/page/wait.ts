// In-page conditions for wait_for: visible text or a visible selector match, checked now or awaited on DOM mutations.

export interface WaitCondition {
  text?: string;
  selector?: string;
  /** A code editor has rendered (editors.ts editorRendered). */
  editor?: true;
}

/** True when the condition holds in this document: the text is visible, a matching element is, or an editor drew. */
export function conditionHolds(condition: WaitCondition): boolean {
  if (condition.editor) return __cm.editorRendered();
  if (condition.selector !== undefined) {
    // Visible on screen, whatever assistive technology is told (aria-hidden does not hide a spinner).
    return __cm
      .queryElements({ selector: condition.selector })
      .some((element) => element.checkVisibility({ visibilityProperty: true }));
  }
  // The same matching as `find`, so what wait_for saw, find then finds (shadow DOM, field values, labels).
  return __cm.textMatches(condition.text ?? '').length > 0;
}

/**
 * Resolves true as soon as `conditionHolds(condition) === want`, false after `ms`.
 * Driven by a MutationObserver (requestAnimationFrame stops in background tabs); checks are spaced by at least
 * 100 ms so a page that mutates constantly does not pay for a text scan per mutation.
 */
export function waitForCondition(condition: WaitCondition, want: boolean, ms: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let lastCheck = 0;
    let pending: ReturnType<typeof setTimeout> | undefined;
    const observer = new MutationObserver(() => schedule());
    const finish = (result: boolean) => {
      if (settled) return;
      settled = true;
      observer.disconnect();
      clearTimeout(pending);
      clearTimeout(deadline);
      resolve(result);
    };
    const check = () => {
      pending = undefined;
      lastCheck = Date.now();
      try {
        if (__cm.conditionHolds(condition) === want) finish(true);
      } catch (error) {
        settled = true;
        observer.disconnect();
        clearTimeout(deadline);
        reject(error);
      }
    };
    const schedule = () => {
      if (settled || pending !== undefined) return;
      const wait = 100 - (Date.now() - lastCheck);
      if (wait <= 0) check();
      else pending = setTimeout(check, wait);
    };
    const deadline = setTimeout(() => finish(false), ms);
    check();
    if (!settled) observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}
