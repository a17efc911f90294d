// Short tab handles the model keeps ("fk.3"): the tag names one backend session, so a handle from an earlier
// browser session is recognisably stale instead of silently hitting whichever tab now has the same number.
import { ToolError } from '../protocol/errors.js';

export class TabHandles {
  private readonly byHostId = new Map<string, string>();
  private readonly byHandle = new Map<string, string>();
  private next = 1;

  /** `saved` restores the handles an earlier run of the same session gave out. */
  constructor(
    readonly tag: string,
    saved?: { handles: Array<[string, string]>; next: number },
  ) {
    if (!saved) return;
    for (const [hostId, handle] of saved.handles) {
      this.byHostId.set(hostId, handle);
      this.byHandle.set(handle, hostId);
    }
    this.next = saved.next;
  }

  saved(): { handles: Array<[string, string]>; next: number } {
    return { handles: [...this.byHostId], next: this.next };
  }

  /** The handle of a backend tab id, minted on first sight. */
  handleFor(hostId: string): string {
    let handle = this.byHostId.get(hostId);
    if (!handle) {
      handle = `${this.tag}.${this.next++}`;
      this.byHostId.set(hostId, handle);
      this.byHandle.set(handle, hostId);
    }
    return handle;
  }

  /** The backend tab id behind a handle; STALE_TAB for another session's handle, TAB_NOT_FOUND otherwise. */
  hostId(handle: string): string {
    const trimmed = handle.trim();
    const hostId = this.byHandle.get(trimmed);
    if (hostId !== undefined) return hostId;
    const dot = trimmed.lastIndexOf('.');
    if (dot > 0 && trimmed.slice(0, dot) !== this.tag && /^\d+$/.test(trimmed.slice(dot + 1))) {
      throw new ToolError(
        'STALE_TAB',
        `${trimmed} is from an earlier browser session; this session's handles start with ${this.tag}.`,
      );
    }
    throw new ToolError('TAB_NOT_FOUND', `No tab ${trimmed}. Call \`tabs\` for the open tabs.`);
  }

  forget(hostId: string): void {
    const handle = this.byHostId.get(hostId);
    this.byHostId.delete(hostId);
    if (handle) this.byHandle.delete(handle);
  }
}
