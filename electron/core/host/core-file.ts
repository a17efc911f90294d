// `<data-dir>/core.json`: where the running core's MCP socket listens and the token every connection presents (0600),
// so a relay of this user on this machine can reach the core and nobody else can.
import { join } from 'node:path';
import { z } from 'zod';
import { processAlive } from '../pairing/bridge-state.js';
import { readPrivateJson, removeFile, writeFileAtomic } from '../pairing/private-files.js';

export const CORE_FILE = 'core.json';

const CoreFileSchema = z.strictObject({
  v: z.literal(1),
  socket: z.string().min(1),
  token: z.string().min(1),
  pid: z.number().int().positive(),
});
export type CoreFile = z.infer<typeof CoreFileSchema>;

/** The running core's socket and token, or undefined when none was written or its writer is gone (a crash leaves one). */
export function readCoreFile(dataDir: string): CoreFile | undefined {
  const file = readPrivateJson(join(dataDir, CORE_FILE), CoreFileSchema);
  return file && processAlive(file.pid) ? file : undefined;
}

/** The data dir is already private: hostCore made sure before it listened. */
export function writeCoreFile(dataDir: string, file: CoreFile): void {
  writeFileAtomic(join(dataDir, CORE_FILE), `${JSON.stringify(file)}\n`);
}

/** Removes the file only if it still names `token`: a core started after us on the same data dir may have written its own. */
export function removeCoreFile(dataDir: string, token: string): void {
  if (readPrivateJson(join(dataDir, CORE_FILE), CoreFileSchema)?.token === token) removeFile(join(dataDir, CORE_FILE));
}
