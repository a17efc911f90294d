// The extension's side of the round-trip table: every chrome.debugger command its service worker sends for one MCP
// call, caught by wrapping chrome.debugger.sendCommand in the worker from the bench's browser-level CDP (the extension
// itself is unchanged, and looks the function up on every send), so the real extension in Chromium is what is counted.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FixtureServer } from '../../test/support/fixture-server.js';
import type { ExtensionBrowser } from '../../test/support/extension-browser.js';
import type { Sent } from './cdp-ledger.js';
import { call } from './mcp-client.js';
import { Table } from './measure.js';
import { TRIP_HEADER, tally, type Ledger } from './round-trips.js';

// Both of chrome.debugger's forms (a promise, or a callback) are timed; the worker's own clock, one per ledger.
const INSTALL = `(() => {
  if (globalThis.__benchSent) return true;
  const sent = (globalThis.__benchSent = []);
  const original = chrome.debugger.sendCommand.bind(chrome.debugger);
  chrome.debugger.sendCommand = (target, method, params, callback) => {
    const entry = { method, start: performance.now(), end: -1 };
    sent.push(entry);
    const done = () => void (entry.end = performance.now());
    if (typeof callback === 'function') return original(target, method, params, (result) => (done(), callback(result)));
    const reply = original(target, method, params);
    reply.then(done, done);
    return reply;
  };
  return true;
})()`;

/** Each call of the round-trip table through MCP stdio to the extension, its commands read back from the worker. */
export async function extensionTrips(browser: ExtensionBrowser, client: Client, server: FixtureServer): Promise<Table> {
  const ledger: Ledger = {
    // Installed again if the worker was stopped and started since (its globals go with it).
    clear: () => browser.evaluate(`(${INSTALL}, void globalThis.__benchSent.splice(0))`),
    // Unanswered is -1 on the way out: Infinity does not survive returnByValue inside an object.
    read: async () =>
      (await browser.evaluate<Sent[]>('globalThis.__benchSent.splice(0)')).map((entry) =>
        entry.end < 0 ? { ...entry, end: Infinity } : entry,
      ),
  };
  const table = new Table(TRIP_HEADER);
  await tally(server, (op, args) => call(client, op, args), ledger, table);
  return table;
}
