// The audit log: every recorded call lands as one JSON line with no secret in it (the redaction corpus planted in
// every field), 0600, rotated to one old file, and read back filtered, newest last.
import { chmodSync, existsSync, readFileSync, readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIT_FILE, AUDIT_OLD_FILE, AuditLog } from '../../electron/core/control/audit-log.js';
import type { CallRecord } from '../../shared/control/activity.js';
import { DATABASE_URLS, NAMED, PRIVATE_KEYS, SHAPED, chars } from '../redact/samples.js';
import { makeHub, tempDataDirs } from './support.js';

const dirs = tempDataDirs();
afterAll(() => dirs.cleanup());

const mode = (path: string) => statSync(path).mode & 0o777;

interface Plant {
  /** The part that must never reach the file. */
  secret: string;
  call: Omit<CallRecord, 'id'>;
}

const base = { client: 'claude-code', tool: 'navigate', decision: 'allowed' } as const;

/** Each corpus secret planted where a page or a careless client would put it: URLs, element descriptions, names, codes. */
const PLANTS: Plant[] = [
  ...SHAPED.map(({ prefix, token }, i): Plant => ({
    secret: token.slice(prefix.length),
    call: [
      { ...base, url: `https://api.example.com/v1/items?value=${token}&page=2` },
      { ...base, tool: 'type', element: `textbox "Credential" filled with ${token}` },
      {
        ...base,
        tool: 'click',
        element: 'Save button',
        url: `https://app.example.com/#${token}`,
        code: `upstream said ${token}`,
      },
    ][i % 3]!,
  })),
  ...NAMED.map(({ name, value }, i): Plant => ({
    secret: value,
    call:
      i % 2
        ? { ...base, url: `https://app.example.com/cb?lang=en&${name}=${encodeURIComponent(value)}` }
        : { ...base, tool: 'fill_form', element: `field ${name}=${value}` },
  })),
  ...PRIVATE_KEYS.map((pem): Plant => ({
    secret: pem.split('\n')[3]!,
    call: { ...base, tool: 'get_text', element: `pre block: ${pem}` },
  })),
  ...DATABASE_URLS.map(({ url, password }): Plant => ({
    secret: password,
    call: { ...base, url: `https://admin.example.com/settings?next=x`, element: `DATABASE_URL=${url}` },
  })),
  ...['b', 'c', 'd'].map((letter): Plant => {
    const token = chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 40);
    return { secret: token, call: { ...base, client: `client ${letter} Authorization: Bearer ${token}` } };
  }),
];

describe('audit log contents', () => {
  it(`holds no secret from ${PLANTS.length} planted in calls, while keeping what the entry is about`, async () => {
    expect(PLANTS.length).toBeGreaterThanOrEqual(120);
    const { hub, dataDir } = makeHub(dirs.make());
    PLANTS.forEach(({ call }, i) => hub.recordCall({ ms: i, summary: call.element ?? call.url ?? 'done', ...call }));
    await hub.flush();
    const text = readFileSync(join(dataDir, AUDIT_FILE), 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(PLANTS.length);
    const leaked = PLANTS.filter(({ secret }) => text.includes(secret));
    expect(leaked.map(({ secret }) => secret.slice(0, 6))).toEqual([]);
    // The activity stream the panel reads is redacted too.
    const activity = JSON.stringify((await hub.call('activity.list', { limit: 1000 })).events);
    expect(PLANTS.filter(({ secret }) => activity.includes(secret))).toEqual([]);
    // What stays: the tool, the host, the names of the fields.
    expect(JSON.parse(lines[0]!)).toMatchObject({
      client: 'claude-code',
      tool: 'navigate',
      decision: 'allowed',
      ms: 0,
      url: expect.stringContaining('https://api.example.com/v1/items?'),
    });
    expect(text).toContain(NAMED[1]!.name);
    expect(text).not.toContain('summary');
  });

  it('writes the fields of the entry in JSON lines, times in ISO, and only those fields', async () => {
    const { hub, dataDir } = makeHub(dirs.make());
    hub.recordCall({
      client: 'cursor',
      tool: 'click',
      element: 'Buy now button',
      url: 'https://shop.com/p/1',
      decision: 'held',
      code: 'HELD',
      ms: 12,
      summary: 'held for confirmation',
    });
    await hub.flush();
    const [line] = readFileSync(join(dataDir, AUDIT_FILE), 'utf8').trimEnd().split('\n');
    const entry = JSON.parse(line!) as Record<string, unknown>;
    expect(Object.keys(entry)).toEqual(['time', 'client', 'tool', 'element', 'url', 'decision', 'code', 'ms']);
    expect(new Date(entry['time'] as string).toISOString()).toBe(entry['time']);
  });
});

describe('audit log file', () => {
  it('is created 0600 whatever the umask, and an existing file found too open is closed up', async () => {
    const dir = dirs.make();
    const old = process.umask(0);
    try {
      const audit = new AuditLog({ dataDir: dir, log: () => undefined });
      audit.append({ time: new Date().toISOString(), client: 'c', tool: 't', decision: 'allowed' });
      await audit.flush();
    } finally {
      process.umask(old);
    }
    expect(mode(join(dir, AUDIT_FILE))).toBe(0o600);

    const other = dirs.make();
    writeFileSync(join(other, AUDIT_FILE), '');
    chmodSync(join(other, AUDIT_FILE), 0o644);
    const audit = new AuditLog({ dataDir: other, log: () => undefined });
    audit.append({ time: new Date().toISOString(), client: 'c', tool: 't', decision: 'allowed' });
    await audit.flush();
    expect(mode(join(other, AUDIT_FILE))).toBe(0o600);
  });

  it('rotates past the size limit, keeping exactly one old file, and reads across both in order', async () => {
    const dir = dirs.make();
    const audit = new AuditLog({ dataDir: dir, log: () => undefined, maxBytes: 1_000 });
    const entry = (i: number) => ({
      time: new Date(1_700_000_000_000 + i).toISOString(),
      client: 'c',
      tool: `t${i}`,
      decision: 'allowed' as const,
    });
    for (let i = 0; i < 40; i++) {
      audit.append(entry(i));
      // Flushing between appends makes each write its own batch, so rotation happens several times over.
      await audit.flush();
    }
    expect(readdirSync(dir).sort()).toEqual([AUDIT_OLD_FILE, AUDIT_FILE].sort());
    expect(statSync(join(dir, AUDIT_OLD_FILE)).size).toBeGreaterThanOrEqual(1_000);
    expect(statSync(join(dir, AUDIT_FILE)).size).toBeLessThan(1_000);
    expect(mode(join(dir, AUDIT_OLD_FILE))).toBe(0o600);
    const read = await audit.read({ limit: 1000 });
    const tools = read.map((e) => Number(e.tool.slice(1)));
    expect(tools.at(-1)).toBe(39);
    expect(tools).toEqual([...tools].sort((a, b) => a - b));
    expect(tools.length).toBeLessThan(40);
  });

  it.skipIf(process.platform !== 'linux')(
    'appends through one file kept open, in order, and lets go of it on close',
    async () => {
      const dir = dirs.make();
      const path = join(dir, AUDIT_FILE);
      // The open descriptors of this process that name the file (Linux: /proc/self/fd).
      const openOnIt = () =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`) === path;
          } catch {
            return false;
          }
        }).length;
      const audit = new AuditLog({ dataDir: dir, log: () => undefined });
      for (let i = 0; i < 5; i++) {
        audit.append({ time: new Date().toISOString(), client: 'c', tool: `t${i}`, decision: 'allowed' });
        await audit.flush();
        expect(openOnIt()).toBe(1);
      }
      await audit.close();
      expect(openOnIt()).toBe(0);
      expect((await audit.read({ limit: 10 })).map((e) => e.tool)).toEqual(['t0', 't1', 't2', 't3', 't4']);
      expect(mode(path)).toBe(0o600);
    },
  );

  it('logs a write it could not make and keeps going', async () => {
    const dir = dirs.make();
    const logged: string[] = [];
    const audit = new AuditLog({ dataDir: join(dir, 'missing'), log: (line) => logged.push(line) });
    audit.append({ time: new Date().toISOString(), client: 'c', tool: 't', decision: 'allowed' });
    await audit.flush();
    expect(logged).toEqual([expect.stringMatching(/^audit: could not write .*ENOENT/)]);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('skips a torn or foreign line instead of failing the read', async () => {
    const dir = dirs.make();
    writeFileSync(
      join(dir, AUDIT_FILE),
      '{"time":"2024-01-01T00:00:00.000Z","client":"c","tool":"ok","decision":"allowed"}\n{"time":"2024-01-01T00:0\nnot json\n{"x":1}\n',
      { mode: 0o600 },
    );
    const audit = new AuditLog({ dataDir: dir, log: () => undefined });
    expect((await audit.read({ limit: 10 })).map((e) => e.tool)).toEqual(['ok']);
  });
});

describe('audit.read', () => {
  it('filters by tool, decision, URL substring and start time, newest last, limited', async () => {
    let clock = 1_700_000_000_000;
    const { hub } = makeHub(dirs.make(), { now: () => clock });
    const record = (tool: string, decision: CallRecord['decision'], url: string) => {
      clock += 1_000;
      hub.recordCall({ client: 'claude', tool, decision, url });
    };
    record('navigate', 'allowed', 'https://docs.example.com/a');
    record('click', 'denied', 'https://bank.example.com/pay');
    record('click', 'allowed', 'https://docs.example.com/b');
    record('navigate', 'asked', 'https://new.site.org/');
    record('click', 'allowed', 'https://docs.example.com/c');
    const read = async (filter: Record<string, unknown>) =>
      (await hub.call('audit.read', filter)).entries.map((e) => e.url);
    expect(await read({})).toHaveLength(5);
    expect(await read({ tool: 'click' })).toEqual([
      'https://bank.example.com/pay',
      'https://docs.example.com/b',
      'https://docs.example.com/c',
    ]);
    expect(await read({ decision: 'allowed', site: 'DOCS.example' })).toEqual([
      'https://docs.example.com/a',
      'https://docs.example.com/b',
      'https://docs.example.com/c',
    ]);
    expect(await read({ since: 1_700_000_003_000 })).toEqual([
      'https://docs.example.com/b',
      'https://new.site.org/',
      'https://docs.example.com/c',
    ]);
    expect(await read({ limit: 2 })).toEqual(['https://new.site.org/', 'https://docs.example.com/c']);
    await expect(hub.call('audit.read', { limit: 1001 })).rejects.toMatchObject({
      code: 'BAD_ARGS',
      message: expect.stringContaining('limit'),
    });
    await expect(hub.call('audit.read', { decision: 'maybe' })).rejects.toMatchObject({ code: 'BAD_ARGS' });
  });
});
