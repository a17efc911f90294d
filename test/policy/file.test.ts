// The policy file: what it accepts, its defaults, and errors that point at the line or field to fix.
import { describe, expect, it } from 'vitest';
import { evaluatePolicy } from '../../shared/policy/evaluate.js';
import { parsePolicyFile } from '../../shared/policy/file.js';
import { PolicyFormatError } from '../../shared/policy/format-error.js';
import { outcome } from './support.js';

function problemsOf(text: string): readonly string[] {
  try {
    parsePolicyFile(text);
  } catch (error) {
    if (error instanceof PolicyFormatError) return error.problems;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

describe('parsePolicyFile', () => {
  it('reads rules, default and downloads', () => {
    const policy = parsePolicyFile(
      JSON.stringify({
        version: 1,
        rules: [
          { site: 'example.com', level: 'act' },
          { site: 'http://localhost:3000', level: 'trusted' },
          { site: 'ads.example.com', level: 'blocked' },
        ],
        default: 'blocked',
        downloads: true,
      }),
    );
    expect(policy.default).toBe('blocked');
    expect(policy.downloads).toBe(true);
    expect(policy.grants).toEqual([]);
    expect(policy.self).toEqual([]);
    expect(outcome(evaluatePolicy('https://www.example.com/', 'act', policy))).toBe('act');
    expect(outcome(evaluatePolicy('https://ads.example.com/', 'read', policy))).toBe('blocked');
    expect(outcome(evaluatePolicy('http://localhost:3000/', 'trusted', policy))).toBe('trusted');
    expect(outcome(evaluatePolicy('https://other.org/', 'read', policy))).toBe('blocked');
  });

  it('fills the safe defaults: ask for unknown sites, downloads off, no opt-in tools, no rules', () => {
    const policy = parsePolicyFile('{"version": 1}');
    expect(policy).toEqual({ rules: [], grants: [], default: 'ask', downloads: false, tools: [], self: [] });
  });

  it('takes opt-in tool sets, each once, and refuses one it does not know', () => {
    expect(parsePolicyFile('{"version": 1, "tools": ["devtools", "files"]}').tools).toEqual(['devtools', 'files']);
    expect(() => parsePolicyFile('{"version": 1, "tools": ["all"]}')).toThrow(/tools\[0\]/);
    expect(() => parsePolicyFile('{"version": 1, "tools": ["files", "files"]}')).toThrow(
      /tools: names a tool set twice/,
    );
  });

  it('points at the line and column of a JSON typo', () => {
    const [problem] = problemsOf(
      '{\n  "version": 1,\n  "rules": [\n    { "site": "example.com" "level": "act" }\n  ]\n}',
    );
    expect(problem).toMatch(/^line 4, column 29: not valid JSON/);
  });

  it('still says it is not JSON when the engine gives no position', () => {
    expect(problemsOf('')).toEqual([expect.stringMatching(/^not valid JSON/)]);
  });

  it('names every bad field by its path', () => {
    const problems = problemsOf(
      JSON.stringify({
        version: 2,
        rules: [
          { site: 'example.com', level: 'act' },
          { site: 'https://bank.example/login', level: 'read' },
          { site: 'a.com', level: 'write' },
        ],
        default: 'allow',
        downloads: 'yes',
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^version: /),
      expect.stringMatching(/^rules\[1\]\.site: "https:\/\/bank\.example\/login": a rule names a site, not a page/),
      expect.stringMatching(/^rules\[2\]\.level: .*"blocked"\|"read"\|"act"\|"trusted"/),
      expect.stringMatching(/^default: /),
      expect.stringMatching(/^downloads: /),
    ]);
  });

  it('refuses unknown keys, so a typo or a smuggled field is never silently ignored', () => {
    expect(problemsOf('{"version": 1, "downlaods": true}')).toEqual([expect.stringMatching(/^the file: .*downlaods/)]);
    expect(problemsOf('{"version": 1, "self": ["http://127.0.0.1:1"]}')).toEqual([expect.stringMatching(/self/)]);
    expect(problemsOf('{"version": 1, "rules": [{"site": "a.com", "level": "act", "why": "x"}]}')).toEqual([
      expect.stringMatching(/^rules\[0\]: .*why/),
    ]);
  });

  it('lists several problems in one message', () => {
    try {
      parsePolicyFile('{"version": 1, "rules": [{"site": "*", "level": "act"}, {"site": "x.com/a", "level": "act"}]}');
    } catch (error) {
      expect(String(error)).toMatch(/2 problems:\n {2}- rules\[0\]\.site: .*\n {2}- rules\[1\]\.site: /);
      return;
    }
    throw new Error('expected the file to be refused');
  });
});
