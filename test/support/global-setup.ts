// Vitest global setup: builds dist/ once when it is missing or older than the sources, for tests that spawn the real CLI
// or open the built panel.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILT_CLI = join(ROOT, 'dist/electron/helper/cli.js');
const BUILT_PANEL = join(ROOT, 'dist/renderer/index.html');
const SOURCE = /\.(ts|tsx|css|html)$/;

/** The newest modification time of a source file under dir. */
export function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (SOURCE.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const sources = Math.max(...['shared', 'electron', 'renderer'].map((dir) => newestSource(join(ROOT, dir))));
  const built = [BUILT_CLI, BUILT_PANEL].map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0));
  if (Math.min(...built) >= sources) return;
  try {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  } catch {
    // tsc still emits on type errors; type checking is the lint step's job, so the spawned tests run on what it wrote.
    process.stderr.write('global-setup: the build reported errors; tests that spawn the CLI use what it emitted.\n');
  }
}
