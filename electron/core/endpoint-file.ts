// A running core's endpoint file in the data dir (0600): where one of its servers listens and the token callers present,
// so a program of this user on this machine can reach it and nobody else can. Shared by control.json and core.json.
import { join } from 'node:path';
import type { z } from 'zod';
import { processAlive } from './pairing/bridge-state.js';
import { ensurePrivateDir, readPrivateJson, removeFile, writeFileAtomic } from './pairing/private-files.js';

/** What every endpoint file holds besides its address: the token to present, and the process that wrote it. */
interface Endpoint {
  token: string;
  pid: number;
}

export interface EndpointFile<T extends Endpoint> {
  /** The running core's endpoint, or undefined when none was written or its writer is gone (a crash leaves one). */
  read(dataDir: string): T | undefined;
  write(dataDir: string, file: T): void;
  /** Removes the file only if it still names `token`: a core started after us on the same data dir may have written its own. */
  remove(dataDir: string, token: string): void;
}

export function endpointFile<T extends Endpoint>(name: string, schema: z.ZodType<T>): EndpointFile<T> {
  return {
    read(dataDir) {
      const file = readPrivateJson(join(dataDir, name), schema);
      return file && processAlive(file.pid) ? file : undefined;
    },
    write(dataDir, file) {
      ensurePrivateDir(dataDir);
      writeFileAtomic(join(dataDir, name), `${JSON.stringify(file)}\n`);
    },
    remove(dataDir, token) {
      if (readPrivateJson(join(dataDir, name), schema)?.token === token) removeFile(join(dataDir, name));
    },
  };
}
