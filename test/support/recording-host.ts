// A tab host whose tabs' CDP handles record every command the engine sends through them, for tests that count them.
import type { TabHost } from '../../shared/engine/tab-host.js';
import { recordingCdp } from './headed-browser.js';

/** `host` as it is, but each tab's CDP handle pushes the method of every command it sends onto `methods`. */
export function recordingHost(host: TabHost, methods: string[]): TabHost {
  return new Proxy(host, {
    get(target, prop, receiver) {
      if (prop === 'cdp') return async (id: string) => recordingCdp(await target.cdp(id), methods);
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
