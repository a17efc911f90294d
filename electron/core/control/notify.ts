// Calls every listener even when one throws, then rethrows the first failure: a safety notice must reach them all.

export function notifyAll<Args extends unknown[]>(listeners: Iterable<(...args: Args) => void>, ...args: Args): void {
  let failure: { error: unknown } | undefined;
  for (const listener of listeners) {
    try {
      listener(...args);
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
