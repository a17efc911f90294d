// install-client's file work: read a client's config, back it up, and write the edited copy atomically in its old mode.
import { chmodSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../pairing/private-files.js';
import { type ClientName, defaultConfigPath } from './client-paths.js';
import { editServers, type EditAction, type JsonObject, parseConfig } from './mcp-servers.js';

export type InstallClientRequest = {
  client: ClientName;
  /** Default: where the client looks on this machine (defaultConfigPath). */
  configPath?: string;
} & (
  | {
      remove?: false;
      /** What the client runs: the helper launcher's stable path. */
      command: string;
    }
  /** Take our entry away instead. */
  | { remove: true }
);

export interface InstallClientResult {
  path: string;
  action: EditAction;
  /** The copy of the file as it was before this change; none when nothing was written or the file is new. */
  backup?: string;
}

interface ExistingFile {
  /** Where the bytes live: a config symlinked from a dotfiles repo is written through, not replaced by a plain file. */
  real: string;
  bytes: Buffer;
  mode: number;
}

function readExisting(path: string): ExistingFile | undefined {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return { real, bytes: readFileSync(real), mode: statSync(real).mode & 0o777 };
}

function parsed(file: ExistingFile, path: string): JsonObject {
  return parseConfig(file.bytes.toString('utf8'), path);
}

/** The config at `path` as it stands, or undefined when there is none; throws ConfigRefusedError for one that cannot be edited. */
export function currentConfig(path: string): JsonObject | undefined {
  const existing = readExisting(path);
  return existing && parsed(existing, path);
}

/**
 * A copy beside the file, in its mode (the config may hold other servers' keys). 'wx' never overwrites an older backup;
 * two changes within one millisecond get the same stamp, so the later one takes the next free `-N`.
 */
function backUp(file: ExistingFile): string {
  // Colons are not allowed in Windows file names.
  const stamped = `${file.real}.chrome-mcp-backup-${new Date().toISOString().replaceAll(':', '-')}`;
  for (let n = 0; ; n++) {
    const backup = n === 0 ? stamped : `${stamped}-${n}`;
    try {
      writeFileSync(backup, file.bytes, { flag: 'wx', mode: file.mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    if (process.platform !== 'win32') chmodSync(backup, file.mode);
    return backup;
  }
}

/**
 * Adds, updates or (with `remove`) takes away our entry in the client's config. Writes nothing when nothing changes,
 * and throws ConfigRefusedError, having written nothing, for a file it cannot edit without losing something.
 */
export function installClient(request: InstallClientRequest): InstallClientResult {
  const path = request.configPath ?? defaultConfigPath(request.client, process.platform, process.env, homedir());
  const existing = readExisting(path);
  if (!existing && request.remove) return { path, action: 'absent' };
  const config = existing ? parsed(existing, path) : {};
  const edit = editServers(config, path, request.remove ? undefined : request.command);
  if (edit.action === 'unchanged' || edit.action === 'absent') return { path, action: edit.action };
  const text = `${JSON.stringify(edit.config, null, 2)}\n`;
  if (!existing) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // A new config is this user's alone: clients keep API keys for other servers in it.
    writeFileAtomic(path, text, 0o600);
    return { path, action: edit.action };
  }
  const backup = backUp(existing);
  writeFileAtomic(existing.real, text, existing.mode);
  return { path, action: edit.action, backup };
}
