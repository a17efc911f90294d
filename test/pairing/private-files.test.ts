// The file store's ground: a 0700 data dir (made or tightened), 0600 files, and writes no reader sees half of.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ensurePrivateDir, readPrivateJson, writeFileAtomic } from '../../electron/core/pairing/private-files.js';
import { tempDirs } from './support/cli.js';

const dirs = tempDirs('files');
afterAll(() => dirs.cleanup());

const mode = (path: string) => statSync(path).mode & 0o777;
const BUILT_FILES = fileURLToPath(new URL('../../dist/electron/core/pairing/private-files.js', import.meta.url));

describe('private files', () => {
  it('creates the data dir 0700, nested, and tightens one that is too open', () => {
    const dir = join(dirs.make(), 'a', 'data');
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
    chmodSync(dir, 0o755);
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a data dir another user owns (needs root to make one)', () => {
    const dir = join(dirs.make(), 'theirs');
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 65534, 65534);
    expect(() => ensurePrivateDir(dir)).toThrow(/belongs to another user/);
  });

  it('writes 0600 whatever the umask, and leaves no temp file behind', () => {
    const dir = dirs.make();
    const path = join(dir, 'x.json');
    const old = process.umask(0);
    try {
      writeFileAtomic(path, '{"a":1}\n');
    } finally {
      process.umask(old);
    }
    expect(mode(path)).toBe(0o600);
    writeFileAtomic(path, '{"a":2}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"a":2}\n');
    expect(readdirSync(dir)).toEqual(['x.json']);
  });

  it('closes a private file found readable by others when reading it, and treats junk as absent', () => {
    const dir = dirs.make();
    const path = join(dir, 'x.json');
    writeFileSync(path, '{"a":1}', { mode: 0o644 });
    chmodSync(path, 0o644);
    expect(readPrivateJson(path, z.object({ a: z.number() }))).toEqual({ a: 1 });
    expect(mode(path)).toBe(0o600);
    writeFileSync(path, '{"a":');
    expect(readPrivateJson(path, z.object({ a: z.number() }))).toBeUndefined();
    expect(readPrivateJson(join(dir, 'missing.json'), z.object({}))).toBeUndefined();
  });

  it('is atomic: a reader racing a writer process only ever sees a whole old or whole new file', async () => {
    const path = join(dirs.make(), 'race.json');
    // Two large, different bodies: a torn write would show as a mix or a prefix of them.
    const body = (letter: string) => `${JSON.stringify({ fill: letter.repeat(256 * 1024) })}\n`;
    const bodies = [body('a'), body('b')];
    writeFileAtomic(path, bodies[0]!);
    const writer = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { writeFileAtomic } = await import(${JSON.stringify(BUILT_FILES)});
       const body = ${body.toString()};
       const bodies = [body('a'), body('b')];
       for (let i = 0; i < 300; i++) writeFileAtomic(${JSON.stringify(path)}, bodies[i % 2]);`,
      ],
      { stdio: 'inherit' },
    );
    const done = new Promise<number | null>((resolve) => writer.once('exit', resolve));
    let reads = 0;
    let running = true;
    void done.then(() => (running = false));
    while (running) {
      expect(bodies).toContain(readFileSync(path, 'utf8'));
      reads++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await done).toBe(0);
    expect(reads).toBeGreaterThan(10);
    expect(mode(path)).toBe(0o600);
  });
});
