// A linked extension (linked-extension.ts) for a test file, started in its beforeAll and closed in its afterAll. Apart
// from linked-extension.ts, which the bench imports outside vitest.
import { afterAll, beforeAll } from 'vitest';
import { startLinkedExtension, type LinkedExtension, type LinkedOptions } from './linked-extension.js';

/** The file's linked extension: call the returned function inside a hook or test for it. */
export function useLinkedExtension(options: LinkedOptions = {}): () => LinkedExtension {
  let linked: LinkedExtension | undefined;
  beforeAll(async () => {
    linked = await startLinkedExtension(options);
  });
  afterAll(async () => {
    await linked?.close();
  });
  return () => {
    if (!linked) throw new Error('the linked extension starts in beforeAll: use it inside a hook or test');
    return linked;
  };
}
