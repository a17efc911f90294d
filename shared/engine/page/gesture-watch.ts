// A capturing listener of ours on a document's gesture events, in an isolated world of its own (gesture-listeners.ts
// ships it by its source text): the page can neither see nor remove it, and it runs first in every dispatch the page has
// not stopped. Its code is blackboxed, so the listener breakpoint passes over it to the next function called: for an
// event a script may have made it calls the teller, whose pause names the dispatcher below it and whose `event`
// parameter tells which listeners the dispatch is to run. A person's or the agent's own click calls nothing, and costs
// no pause here.

/**
 * Adds the listener for each of `types` on this world's window, capturing; `teller` is the name of this world's global
 * the teller script (tellGesture) defines.
 */
export function watchGestures(types: readonly string[], teller: string): void {
  const listen = EventTarget.prototype.addEventListener;
  const later = setTimeout;
  const world = globalThis as unknown as Record<string, (event: Event) => void>;
  // A script's untrusted click has the browser dispatch trusted events of its own in the same task (a label's click
  // forwarded to its control): every event until the task ends is told.
  let untrustedTask = false;
  const watch = (event: Event): void => {
    // A submit is trusted whoever submitted (requestSubmit, a script's click on a submit button): always told.
    if (event.isTrusted && event.type !== 'submit' && !untrustedTask) return;
    if (!event.isTrusted && !untrustedTask) {
      untrustedTask = true;
      later(() => (untrustedTask = false));
    }
    world[teller]?.(event);
  };
  for (const type of types) Reflect.apply(listen, window, [type, watch, { capture: true }]);
}

/** Defines the teller, which does nothing: the listener breakpoint pauses at its first statement. */
export function tellGesture(teller: string): void {
  (globalThis as unknown as Record<string, (event: Event) => Event>)[teller] = (event: Event): Event => event;
}
