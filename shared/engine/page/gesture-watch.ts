// A capturing listener of ours on a document's gesture events, in an isolated world of its own (gesture-listeners.ts
// ships it by its source text): the page can neither see nor remove it, and it runs first in every dispatch the page has
// not stopped. It does nothing; the debugger pauses at its first statement, so the paused stack names the dispatcher, and
// the event (its `event` parameter) tells which listeners the dispatch is to run.

/** Adds the listener for each of `types` on this world's window, capturing. */
export function watchGestures(types: readonly string[]): void {
  const listen = EventTarget.prototype.addEventListener;
  const watch = (event: Event): void => void event;
  for (const type of types) Reflect.apply(listen, window, [type, watch, { capture: true }]);
}
