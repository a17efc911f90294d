// `<data-dir>/control.json`: where the running core's loopback control API listens and its token (0600), so a panel
// or a script of this user on this machine can reach it and nobody else can.
import { join } from 'node:path';
import { z } from 'zod';
import { processAlive } from '../pairing/bridge-state.js';
import { ensurePrivateDir, readPrivateJson, removeFile, writeFileAtomic } from '../pairing/private-files.js';

export const CONTROL_FILE = 'control.json';

const ControlFileSchema = z.strictObject({
  port: z.number().int().min(1).max(65_535),
  token: z.string().min(1),
  pid: z.number().int().positive(),
});
export type ControlFile = z.infer<typeof ControlFileSchema>;

/** The running core's control endpoint, or undefined when none was written or its writer is gone (a crash leaves one). */
export function readControlFile(dataDir: string): ControlFile | undefined {
  const file = readPrivateJson(join(dataDir, CONTROL_FILE), ControlFileSchema);
  return file && processAlive(file.pid) ? file : undefined;
}

export function writeControlFile(dataDir: string, file: ControlFile): void {
  ensurePrivateDir(dataDir);
  writeFileAtomic(join(dataDir, CONTROL_FILE), `${JSON.stringify(file)}\n`);
}

/** Removes the file only if it still names `token`: a second core on the same data dir may have written its own since. */
export function removeControlFile(dataDir: string, token: string): void {
  if (readPrivateJson(join(dataDir, CONTROL_FILE), ControlFileSchema)?.token === token) removeFile(join(dataDir, CONTROL_FILE));
}
