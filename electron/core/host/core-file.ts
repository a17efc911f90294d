// `<data-dir>/core.json`: where the running core's MCP socket listens and the token every connection presents (0600),
// for a relay of this user on this machine.
import { z } from 'zod';
import { endpointFile } from '../endpoint-file.js';

export const CORE_FILE = 'core.json';

const CoreFileSchema = z.strictObject({
  v: z.literal(1),
  socket: z.string().min(1),
  token: z.string().min(1),
  pid: z.number().int().positive(),
});
export type CoreFile = z.infer<typeof CoreFileSchema>;

const file = endpointFile(CORE_FILE, CoreFileSchema);
export const readCoreFile = file.read;
export const writeCoreFile = file.write;
export const removeCoreFile = file.remove;
