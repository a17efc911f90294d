// `<data-dir>/control.json`: where the running core's loopback control API listens and its token (0600), for a panel
// or a script of this user on this machine.
import { z } from 'zod';
import { endpointFile } from '../endpoint-file.js';

export const CONTROL_FILE = 'control.json';

const ControlFileSchema = z.strictObject({
  port: z.number().int().min(1).max(65_535),
  token: z.string().min(1),
  pid: z.number().int().positive(),
});
export type ControlFile = z.infer<typeof ControlFileSchema>;

const file = endpointFile(CONTROL_FILE, ControlFileSchema);
export const readControlFile = file.read;
export const writeControlFile = file.write;
export const removeControlFile = file.remove;
