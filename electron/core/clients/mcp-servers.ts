// The one edit install-client makes to a client's config: our entry under `mcpServers`, every other key kept as it was,
// in its place. Refuses, naming the reason, any file it could not edit without losing something.
import { win32 } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { describeJsonError } from './json-error.js';

/** Our key in every client's `mcpServers`. */
export const SERVER_NAME = 'chrome-mcp';

/** The config is not one install-client can edit safely; the message says which file, why, and that nothing changed. */
export class ConfigRefusedError extends Error {}

const jsonObject = z.record(z.string(), z.unknown());
export type JsonObject = z.infer<typeof jsonObject>;

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

const words = z.array(z.string());

/** A command's program name, any folder and Windows extension cut off: `C:\\nodejs\\node.exe` and `/usr/bin/node` are both `node`. */
function programName(command: unknown): string {
  // win32.basename splits at both / and \, so one call serves every OS's paths.
  return typeof command === 'string'
    ? win32
        .basename(command)
        .toLowerCase()
        .replace(/\.(exe|cmd)$/, '')
    : '';
}

/**
 * The args our entry runs the launcher with. install-client has always written `args: []` (the launcher holds our own
 * arguments), so whatever an entry has there was put there by the person: flags for the stdio core, such as
 * `--allow example.com`. They are kept while the entry runs `command`, and when it moves to `command` from another
 * form that ran chrome-mcp with flags after it — an older launcher, the README's `chrome-mcp [flags]`, or its
 * `node …/cli.js [flags]` (the script path is what the launcher now runs, so it goes). Any other program's args were
 * that program's own, so they are not carried over to ours.
 */
function keptArgs(old: JsonObject, command: string): string[] {
  const args = words.safeParse(old['args']).data;
  if (!args) return [];
  if (old['command'] === command) return args;
  const program = programName(old['command']);
  if (program === 'chrome-mcp' || program === 'chrome-mcp-helper') return args;
  if (program === 'node' && programName(args[0]) === 'cli.js') return args.slice(1);
  return [];
}

export interface ServersEdit {
  action: EditAction;
  config: JsonObject;
  /** Our entry as written, when this edit adds or updates it. */
  entry?: JsonObject;
}

/**
 * `config` with our entry running `command` (or taken away when `command` is undefined). An entry there before keeps
 * the person's own additions: `env`, say, and the flags in its args (see keptArgs); only its command is ours.
 */
export function editServers(config: JsonObject, path: string, command: string | undefined): ServersEdit {
  // A missing `mcpServers` is made; a null one is refused like any other non-object.
  const found = Object.hasOwn(config, 'mcpServers') ? config['mcpServers'] : {};
  const map = asObject(found) ?? refuse(path, `has "mcpServers" as ${kindOf(found)}, not an object of servers`);
  const present = Object.hasOwn(map, SERVER_NAME);
  if (command === undefined) {
    if (!present) return { action: 'absent', config };
    const { [SERVER_NAME]: _removed, ...rest } = map;
    return { action: 'removed', config: { ...config, mcpServers: rest } };
  }
  const old = asObject(map[SERVER_NAME]) ?? {};
  const args = keptArgs(old, command);
  if (present && old['command'] === command && isDeepStrictEqual(old['args'], args))
    return { action: 'unchanged', config };
  const entry = { ...old, command, args };
  return {
    action: present ? 'updated' : 'added',
    config: { ...config, mcpServers: { ...map, [SERVER_NAME]: entry } },
    entry,
  };
}
