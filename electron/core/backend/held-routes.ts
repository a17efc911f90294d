// Which backend (and which link of it) holds each held act, noted when the engine's HELD error passes by, so the
// person's decision reaches the holder rather than whichever backend serves the next call.
import { ToolError } from '../../../shared/protocol/errors.js';
import { keepNewest } from '../../../shared/engine/keep-newest.js';

// The engine rejects an undecided act after 10 minutes; a session that holds many must not grow this without bound.
const KEPT = 200;

export class HeldRoutes<T> {
  private readonly routes = new Map<string, T>();

  /** Notes `holder` for the act a HELD error names (a batch step's too); any other error passes unnoted. */
  note(error: unknown, holder: T): string | undefined {
    const id = heldIdIn(error);
    if (id === undefined) return undefined;
    this.routes.set(id, holder);
    keepNewest(this.routes, KEPT);
    return id;
  }

  /** The holder of `id`, forgotten here: a decision is made once. */
  take(id: string): T | undefined {
    const holder = this.routes.get(id);
    this.routes.delete(id);
    return holder;
  }
}

/** The id of the act a HELD error names (a batch step's too); undefined for any other error. */
export function heldIdIn(error: unknown): string | undefined {
  if (!(error instanceof ToolError) || error.code !== 'HELD') return undefined;
  const id = (error.data?.['held'] as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}

/** The id a `release_held` call names (its schema is checked by the engine that holds the act). */
export function heldIdOf(args: Record<string, unknown>): string {
  return typeof args['id'] === 'string' ? args['id'] : '';
}

/** No backend of this core holds `id` any more: nothing was sent, and nothing can be. */
export function heldGoneError(id: string, why: string): ToolError {
  return new ToolError('NOT_FOUND', `Held act ${id.slice(0, 100)} is gone: ${why}; nothing was sent.`, {
    next: 'If it is still wanted, the agent does the act again and it is held afresh.',
  });
}
