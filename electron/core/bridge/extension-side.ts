// The extension's end of the core as the rest of the core asks it: the listening bridge or, when it is off or could
// not listen, a stand-in that says why, links nothing and emits nothing. Callers ask it; none tests which one it holds.
import { EventEmitter } from 'node:events';
import type { BridgeEvents, BridgeServer } from './bridge-server.js';

export interface ExtensionSide extends Pick<
  BridgeServer,
  'link' | 'listening' | 'policyChanged' | 'revoked' | 'close'
> {
  on<K extends keyof BridgeEvents>(event: K, listener: (...args: BridgeEvents[K]) => void): unknown;
}

/** No bridge: the fallback keeps serving (another core holds the port, or `--browser fallback`). */
export class NoBridge extends EventEmitter<BridgeEvents> implements ExtensionSide {
  constructor(private readonly why: string) {
    super();
  }

  link(): undefined {
    return undefined;
  }

  listening(): { error: string } {
    return { error: this.why };
  }

  policyChanged(): void {}

  revoked(): void {}

  async close(): Promise<void> {}
}
