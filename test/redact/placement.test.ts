// Named secrets where the end-to-end secrets page found them leaking: inside another pair's value (snapshot lines), in JSON
// whose quotes are HTML entities (an attribute), and as the label of a field (an environment editor).
import { describe, expect, it } from 'vitest';
import { redactText } from '../../shared/redact/text.js';
import { NAMED } from './samples.js';

/** Redacting twice (extension, then core) must give what redacting once gave. */
function redactedOnce(text: string): string {
  const out = redactText(text);
  expect(redactText(out), 'a second pass changed the text').toBe(out);
  return out;
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

describe("a named secret inside another pair's value", () => {
  const contexts: [string, (name: string, value: string) => string][] = [
    ['a snapshot list item', (n, v) => `- listitem: ${n}=${v}`],
    ['a snapshot text line, as YAML', (n, v) => `  - text: config: ${n}: ${v}`],
    ['a chain of assignments', (n, v) => `env=prod=${n}=${v}`],
    ['a log line of key=value pairs', (n, v) => `level=info msg=loaded source=env:${n}=${v} took=3ms`],
  ];

  for (const { name, value } of NAMED) {
    it.each(contexts)(`${name} in %s`, (_context, plant) => {
      const out = redactedOnce(plant(name, value));
      expect(out).not.toContain(value);
      expect(out).toContain(`${name}`);
      expect(out).toContain(`[redacted ${value.length} chars]`);
    });
  }

  it('leaves the pairs around it as they were', () => {
    expect(redactedOnce('- listitem: SECRET_KEY=Zq8Lm2Xc9 theme=dark')).toBe(
      '- listitem: SECRET_KEY=[redacted 9 chars] theme=dark',
    );
    expect(redactedOnce('- listitem: theme=dark')).toBe('- listitem: theme=dark');
    expect(redactedOnce('level=info msg=ok took=3ms')).toBe('level=info msg=ok took=3ms');
  });
});

describe('JSON in an HTML attribute, its quotes as entities', () => {
  const entities: [string, (json: string) => string][] = [
    ['&quot;', (json) => escapeAttribute(json)],
    ['&#34;', (json) => escapeAttribute(json).replace(/&quot;/g, '&#34;')],
    ['&#x22;', (json) => escapeAttribute(json).replace(/&quot;/g, '&#x22;')],
  ];

  for (const { name, value } of NAMED) {
    it.each(entities)(`${name} quoted by %s`, (_entity, encode) => {
      const attribute = encode(JSON.stringify({ [name]: value }));
      const out = redactedOnce(`<span data-config="${attribute}">setting</span>`);
      expect(out).not.toContain(value);
      expect(out).toContain(name);
      expect(out).toContain(`[redacted ${value.length} chars]`);
    });
  }

  it('keeps the entities, and the fields that are no secret', () => {
    const html = '<span data-config="{&quot;theme&quot;:&quot;dark&quot;,&quot;sessionid&quot;:&quot;9f2a7c41&quot;}">';
    expect(redactedOnce(html)).toBe(
      '<span data-config="{&quot;theme&quot;:&quot;dark&quot;,&quot;sessionid&quot;:&quot;[redacted 8 chars]&quot;}">',
    );
    const plain = '<span data-config="{&quot;theme&quot;:&quot;dark&quot;,&quot;seats&quot;:12}">';
    expect(redactedOnce(plain)).toBe(plain);
  });

  it("masks to the closing entity past an escaped one, and through eval's JSON-string form", () => {
    expect(redactedOnce('{&quot;token&quot;:&quot;ab\\&quot;cd&quot;}')).toBe(
      '{&quot;token&quot;:&quot;[redacted 11 chars]&quot;}',
    );
    const evaluated = JSON.stringify('<span data-config="{&quot;client_secret&quot;:&quot;Zq8Lm2Xc9&quot;}">');
    expect(redactedOnce(evaluated)).not.toContain('Zq8Lm2Xc9');
  });
});

describe("snapshot fields labelled by a secret's name", () => {
  for (const { name, value } of NAMED) {
    it(`- textbox "${name}"`, () => {
      for (const line of [`- textbox "${name}": ${value}`, `  - textbox "${name}" [ref=e5]: ${value}`]) {
        const out = redactedOnce(line);
        expect(out).toBe(line.replace(value, `[redacted ${value.length} chars]`));
      }
    });
  }

  it('judges a label of several words as words only: a meeting called "Current session" is no secret', () => {
    const lines = [
      '- combobox "Current session" [ref=e3]: Morning keynote',
      '- textbox "Email" [ref=e4]: ada@example.com',
      '- textbox "Search" [ref=e5]: session cookies',
    ];
    for (const line of lines) expect(redactedOnce(line)).toBe(line);
  });
});
