// The one edit install-client makes to a client's config: our entry under `mcpServers`, every other key kept as it was,
// in its place. Refuses, naming the reason, any file it could not edit without losing something.
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { describeJsonError } from './json-error.js';

/** Our key in every client's `mcpServers`. */
export const SERVER_NAME = 'chrome-mcp';

/** The config is not one install-client can edit safely; the message says which file, why, and that nothing changed. */
export class ConfigRefusedError extends Error {}

const jsonObject = z.record(z.string(), z.unknown());
export type JsonObject = z.infer<typeof jsonObject>;

export interface ServerEntry {
  command: string;
  args: string[];
}

export type EditAction = 'added' | 'updated' | 'unchanged' | 'removed' | 'absent';

function refuse(path: string, why: string): never {
  throw new ConfigRefusedError(`${path} ${why}: fix or move it by hand, then run this again (nothing was changed)`);
}

/** The value itself when it is a JSON object (not zod's copy, whose key order is not promised), else undefined. */
function asObject(value: unknown): JsonObject | undefined {
  return jsonObject.safeParse(value).success ? (value as JsonObject) : undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** The config file's text as an object; `path` only names the file in a refusal. */
export function parseConfig(text: string, path: string): JsonObject {
  // Notepad saves a byte-order mark, which is not JSON but hides nothing.
  const body = text.replace(/^\uFEFF/, '');
  // An empty file (made by `touch`, or by a client that never wrote it) holds nothing to lose.
  if (body.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    refuse(path, `is not valid JSON (${describeJsonError(body, error)})`);
  }
  return asObject(value) ?? refuse(path, `holds ${kindOf(value)}, not a JSON object`);
}

/**
 * `config` with our entry set to `entry` (or taken away when `entry` is undefined). An entry we wrote before keeps the
 * person's own additions (`env`, say); only its command and args are ours.
 */
export function editServers(config: JsonObject, path: string, entry: ServerEntry | undefined): { action: EditAction; config: JsonObject } {
  // A missing `mcpServers` is made; a null one is refused like any other non-object.
  const found = Object.hasOwn(config, 'mcpServers') ? config['mcpServers'] : {};
  const map = asObject(found) ?? refuse(path, `has "mcpServers" as ${kindOf(found)}, not an object of servers`);
  const present = Object.hasOwn(map, SERVER_NAME);
  if (!entry) {
    if (!present) return { action: 'absent', config };
    const { [SERVER_NAME]: _removed, ...rest } = map;
    return { action: 'removed', config: { ...config, mcpServers: rest } };
  }
  const old = asObject(map[SERVER_NAME]) ?? {};
  if (present && old['command'] === entry.command && isDeepStrictEqual(old['args'], entry.args)) return { action: 'unchanged', config };
  const next = { ...old, command: entry.command, args: entry.args };
  return { action: present ? 'updated' : 'added', config: { ...config, mcpServers: { ...map, [SERVER_NAME]: next } } };
}
