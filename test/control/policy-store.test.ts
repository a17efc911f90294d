// The live policy store: what it saves the next start reads back (0600, atomically), listeners hear every change at
// once, one-run grants against saved rules, and a bad pattern refused by its index before anything changes.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PolicyStore } from '../../electron/core/control/policy-store.js';
import { evaluatePolicy } from '../../shared/policy/evaluate.js';
import { parsePolicyFile } from '../../shared/policy/file.js';
import { PolicyFormatError } from '../../shared/policy/format-error.js';
import { parseSitePattern } from '../../shared/policy/pattern.js';
import { tempDataDirs } from './support.js';

const dirs = tempDataDirs();
afterAll(() => dirs.cleanup());

const level = (store: PolicyStore, url: string, need: 'read' | 'act' | 'trusted' = 'read') => {
  const decision = evaluatePolicy(url, need, store.current());
  return decision.allowed ? decision.level : decision.reason;
};

describe('policy store', () => {
  it('starts from the safe defaults when the file does not exist yet, and creates nothing until a save', () => {
    const dir = dirs.make();
    const store = new PolicyStore({ file: join(dir, 'policy.json') });
    expect(store.current()).toMatchObject({ rules: [], grants: [], default: 'ask', downloads: false });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('saves a version-1 file, 0600, that parsePolicyFile and a new store read back as the same policy', () => {
    const dir = dirs.make();
    const file = join(dir, 'nested', 'policy.json');
    const old = process.umask(0);
    let store: PolicyStore;
    try {
      store = new PolicyStore({ file });
      store.setStanding({
        rules: [
          { site: 'GitHub.com', level: 'act' },
          { site: 'http://localhost:3000', level: 'trusted' },
        ],
        default: 'blocked',
        downloads: true,
      });
    } finally {
      process.umask(old);
    }
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'nested'))).toEqual(['policy.json']);
    const text = readFileSync(file, 'utf8');
    expect(JSON.parse(text)).toEqual({
      version: 1,
      rules: [
        { site: 'github.com', level: 'act' },
        { site: 'http://localhost:3000', level: 'trusted' },
      ],
      default: 'blocked',
      downloads: true,
      tools: [],
    });
    expect(parsePolicyFile(text)).toEqual({ ...store.current(), grants: [], self: [] });
    const reopened = new PolicyStore({ file });
    expect(reopened.current()).toEqual(store.current());
    expect(level(reopened, 'https://api.github.com/x', 'act')).toBe('act');
    expect(level(reopened, 'https://example.org/')).toBe('blocked');
  });

  it('reports a missing file named by --policy instead of starting afresh', () => {
    const file = join(dirs.make(), 'mine.json');
    expect(() => new PolicyStore({ file, required: true })).toThrow(new PolicyFormatError(['the file does not exist']));
  });

  it('reports a broken file as PolicyFormatError naming the place', () => {
    const dir = dirs.make();
    const file = join(dir, 'policy.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        rules: [
          { site: 'ok.com', level: 'read' },
          { site: 'https://a.com/login', level: 'act' },
        ],
      }),
    );
    expect(() => new PolicyStore({ file })).toThrow(PolicyFormatError);
    expect(() => new PolicyStore({ file })).toThrow(/rules\[1\]\.site/);
  });

  it('refuses to load a file an older version saved with a too-broad answer, naming the rule, and leaves it as it was', () => {
    const file = join(dirs.make(), 'policy.json');
    // What an "Always" answer on http://localhost/ and on https://github.io/ used to write.
    const text = JSON.stringify({
      version: 1,
      rules: [
        { site: 'localhost', level: 'act' },
        { site: 'github.io', level: 'act' },
      ],
    });
    writeFileSync(file, text);
    expect(() => new PolicyStore({ file })).toThrow(
      /rules\[0\]\.site: "localhost": a local host name needs its port[\s\S]*rules\[1\]\.site: "github\.io": github\.io is a public suffix/,
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('refuses a too-broad grant or rule whoever adds it, and keeps a block of the same', () => {
    const store = new PolicyStore({ file: join(dirs.make(), 'policy.json') });
    expect(() => store.grant({ site: parseSitePattern('co.uk'), level: 'act' })).toThrow(/public suffix/);
    expect(() => store.addRule({ site: parseSitePattern('127.0.0.1'), level: 'read' })).toThrow(/needs its port/);
    expect(store.current().grants).toEqual([]);
    expect(store.current().rules).toEqual([]);
    store.grant({ site: parseSitePattern('co.uk'), level: 'blocked' });
    expect(store.current().grants).toHaveLength(1);
  });

  it('refuses a bad pattern by its index, changing nothing and saving nothing', () => {
    const dir = dirs.make();
    const file = join(dir, 'policy.json');
    const store = new PolicyStore({ file });
    let heard = 0;
    store.onChange(() => heard++);
    const bad = () =>
      store.setStanding({
        rules: [
          { site: 'good.com', level: 'read' },
          { site: 'bad.com/path', level: 'act' },
          { site: '*', level: 'act' },
        ],
        default: 'ask',
        downloads: false,
      });
    expect(bad).toThrow(PolicyFormatError);
    try {
      bad();
    } catch (error) {
      expect((error as PolicyFormatError).problems).toEqual([
        expect.stringMatching(/^rules\[1\]: "bad\.com\/path": a rule names a site, not a page/),
        expect.stringMatching(/^rules\[2\]: "\*": a rule cannot cover every site/),
      ]);
    }
    expect(store.current().rules).toEqual([]);
    expect(heard).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('tells every listener synchronously, with what changed, and stops after unsubscribe', () => {
    const store = new PolicyStore({ file: join(dirs.make(), 'policy.json') });
    const heard: string[] = [];
    const off = store.onChange((policy, change) =>
      heard.push(`${change.kind}:${policy.rules.length}/${policy.grants.length}`),
    );
    store.onChange(() => heard.push('second'));
    store.setStanding({ rules: [{ site: 'a.com', level: 'read' }], default: 'ask', downloads: false });
    expect(heard).toEqual(['standing:1/0', 'second']);
    store.grant({ site: parseSitePattern('b.com'), level: 'act' });
    store.addRule({ site: parseSitePattern('c.com'), level: 'read' });
    store.setSelf([parseSitePattern('http://127.0.0.1:4567')]);
    expect(heard).toEqual([
      'standing:1/0',
      'second',
      'grant:1/1',
      'second',
      'rule:2/1',
      'second',
      'self:2/1',
      'second',
    ]);
    expect(level(store, 'http://127.0.0.1:4567/')).toBe('blind');
    off();
    store.grant({ site: parseSitePattern('d.com'), level: 'act' });
    expect(heard.at(-1)).toBe('second');
  });

  it('a listener that throws does not keep the change from the others, and the caller hears of it', () => {
    const store = new PolicyStore({ file: join(dirs.make(), 'policy.json') });
    const heard: string[] = [];
    store.onChange(() => {
      throw new Error('push failed');
    });
    store.onChange((_policy, change) => heard.push(change.kind));
    expect(() => store.grant({ site: parseSitePattern('a.com'), level: 'blocked' })).toThrow('push failed');
    expect(heard).toEqual(['grant']);
    expect(level(store, 'https://a.com/')).toBe('blocked');
  });

  it('keeps grants for this run only: never saved, and lost on the next start', () => {
    const file = join(dirs.make(), 'policy.json');
    const store = new PolicyStore({ file, grants: [{ site: parseSitePattern('flag.com'), level: 'trusted' }] });
    store.grant({ site: parseSitePattern('once.com'), level: 'act' });
    store.addRule({ site: parseSitePattern('always.com'), level: 'act' });
    expect(JSON.parse(readFileSync(file, 'utf8')).rules).toEqual([{ site: 'always.com', level: 'act' }]);
    const next = new PolicyStore({ file });
    expect(level(next, 'https://once.com/')).toBe('ask');
    expect(level(next, 'https://flag.com/')).toBe('ask');
    expect(level(next, 'https://always.com/', 'act')).toBe('act');
  });

  it('grant vs rule: a grant outranks the saved rule for its site, a newer answer replaces an older one either way', () => {
    const store = new PolicyStore({ file: join(dirs.make(), 'policy.json') });
    const site = parseSitePattern('shop.com');
    store.addRule({ site, level: 'read' });
    store.grant({ site, level: 'act' });
    expect(level(store, 'https://shop.com/', 'act')).toBe('act');
    store.grant({ site, level: 'blocked' });
    expect(store.current().grants).toHaveLength(1);
    expect(level(store, 'https://shop.com/')).toBe('blocked');
    // "Always" after "deny": the person's newer answer wins, so the run's deny goes.
    store.addRule({ site: parseSitePattern('SHOP.com.'), level: 'trusted' });
    expect(store.current().grants).toEqual([]);
    expect(store.current().rules).toEqual([{ site, level: 'trusted' }]);
    expect(level(store, 'https://www.shop.com/', 'trusted')).toBe('trusted');
  });

  it('a saved block is never lifted by a grant for the same site', () => {
    const store = new PolicyStore({ file: join(dirs.make(), 'policy.json') });
    store.setStanding({ rules: [{ site: 'ads.com', level: 'blocked' }], default: 'ask', downloads: false });
    store.grant({ site: parseSitePattern('ads.com'), level: 'trusted' });
    expect(level(store, 'https://ads.com/')).toBe('blocked');
  });

  it("editing the standing rules keeps this run's grants", () => {
    const store = new PolicyStore({
      file: join(dirs.make(), 'policy.json'),
      grants: [{ site: parseSitePattern('flag.com'), level: 'act' }],
    });
    store.setStanding({ rules: [], default: 'blocked', downloads: false });
    expect(level(store, 'https://flag.com/', 'act')).toBe('act');
    expect(level(store, 'https://other.com/')).toBe('blocked');
  });
});
