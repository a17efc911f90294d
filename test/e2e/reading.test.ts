// read_as_markdown and extract_links through a real MCP client on stdio, in both backends, on a site the policy
// lets the agent only read: the article without the page's chrome, planted secrets never shown, honest truncation,
// links absolute and deduplicated, and a frame of a blocked site refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { BACKENDS, startMcp, type McpRun } from '../support/mcp-backends.js';

/** Planted in read-article.html where a page keeps secrets; none may reach the model. */
const PLANTED = [
  'Zq8RfT2mKx9LwVb4NcHd7JpYs3GaUe6Qo1Xi', // a GitHub token in the article's text
  'Rk7Vq2Lm9Xc4Tb8Nw1Jy5Hd3Gs6Fp0Az', // a reset token in an article link's query string
  'PwValue8Hunter2Zz', // a password field's value
  'HiddenInput7Sess9Val', // a hidden input
  'TypedQueryValue', // a text field's value
  'Csrf1Meta2Token3Value4Abcdefgh56', // a csrf meta tag
  'ScriptBody9Secret8Value7zz', // a script body
  'StyleBodyMarker', // a style body
  'HiddenInjectedText', // text the page does not show
];

describe.each(BACKENDS)('reading tools over the %s backend', (backend) => {
  let fixtures: FixtureServer;
  let mcp: McpRun;
  let origin: string;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    origin = fixtures.origin;
    const port = new URL(origin).port;
    mcp = await startMcp(backend, [
      { site: `127.0.0.1:${port}`, level: 'read' },
      { site: `localhost:${port}`, level: 'blocked' },
    ]);
    fixtures.serve('/generated/long-article', { body: longArticle() });
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
    await fixtures?.close();
  });

  it('reads the article as Markdown, title on top, links absolute, without nav, ads, sidebar or footer', async () => {
    expect((await mcp.call('tab_new', { url: fixtures.url('read-article.html') })).isError).toBe(false);
    const { text, isError, data } = await mcp.call('read_as_markdown');
    expect(isError, text).toBe(false);
    expect(text.startsWith('# Gardening in small spaces\n')).toBe(true);
    expect(text).toContain('## Soil and containers');
    expect(text).toContain('A balcony can hold more than you think.');
    expect(text).toContain('```\ndef water(pot):\n    if pot.dry():\n        pot.soak()\n```');
    expect(text).toContain(`[full soil guide](${origin}/soil.html)`);
    for (const chrome of ['SPONSORED', 'MegaHose', 'Sidebar story', 'Trending', 'FooterCorp', 'About us'])
      expect(text).not.toContain(chrome);
    expect(text).not.toContain('No main article found');
    // Text only: the model reads the Markdown, and nothing else goes with it.
    expect(data).toBeUndefined();
  });

  it('never shows a planted secret: text and link tokens redacted, field values, code and hidden text left out', async () => {
    await mcp.call('navigate', { url: fixtures.url('read-article.html') });
    const markdown = await mcp.call('read_as_markdown');
    const links = await mcp.call('extract_links', { limit: 500 });
    const seen = `${markdown.text}\n${JSON.stringify(markdown.data)}\n${links.text}\n${JSON.stringify(links.data)}`;
    // The places were read: their names show, masked.
    expect(markdown.text).toContain('ghp_[redacted 36 chars]');
    expect(markdown.text).toContain(`(${origin}/account/reset?token=[redacted 32 chars])`);
    expect(links.text).toContain(`- [reset their planting plan](${origin}/account/reset?token=[redacted 32 chars])`);
    for (const secret of PLANTED) expect(seen, secret).not.toContain(secret);
  });

  it('truncates a page over the budget, saying how much is left and how to read it all', async () => {
    await mcp.call('navigate', { url: fixtures.url('generated/long-article') });
    const first = await mcp.call('read_as_markdown');
    const cut = /\n…truncated, ([\d,]+) more chars \(call read_as_markdown with maxChars=(\d+) to read them\)\.$/m.exec(
      first.text,
    );
    expect(cut, first.text.slice(-300)).not.toBeNull();
    const all = Number(cut![2]);
    expect(Number(cut![1]!.replace(/,/g, ''))).toBe(all - 12_000);
    const whole = await mcp.call('read_as_markdown', { maxChars: all });
    expect(whole.text).not.toContain('…truncated');
    expect(whole.text).toContain('Paragraph 400 of the long article.');
  });

  it('lists links once each, absolute, in page order; filter and limit say what they left out', async () => {
    await mcp.call('navigate', { url: fixtures.url('read-article.html') });
    const { text, data } = await mcp.call('extract_links');
    const hrefs = [...text.matchAll(/^- \[[^\]]*\]\(([^)]+)\)$/gm)].map((match) => match[1]);
    expect(hrefs.slice(0, 3)).toEqual([`${origin}/`, `${origin}/topics/`, `${origin}/about.html`]);
    expect(hrefs).toContain('https://ads.example/click?id=1');
    expect(hrefs.at(-1)).toBe(`${origin}/privacy`);
    expect(new Set(hrefs).size).toBe(hrefs.length);
    expect(hrefs).toHaveLength(10);
    expect(text).not.toContain('more links');
    expect(data).toBeUndefined();
    const topics = await mcp.call('extract_links', { filter: 'TOPICS' });
    expect(topics.text).toBe(`- [Topics](${origin}/topics/)`);
    const three = await mcp.call('extract_links', { limit: 3 });
    expect(three.text.split('\n')).toEqual([
      `- [Home](${origin}/)`,
      `- [Topics](${origin}/topics/)`,
      `- [About us](${origin}/about.html)`,
      '…7 more links (raise limit, or narrow with filter).',
    ]);
  });

  it('refuses a frame of a blocked site (left on a blind error page), and reads the frames it may', async () => {
    // frames.html: frame 1 is of the page's own site, frame 2 of the other one (localhost), which is blocked.
    await mcp.call('navigate', { url: fixtures.url('frames.html') });
    const links = await mcp.call('extract_links');
    expect(links.isError, links.text).toBe(false);
    expect(links.text).toMatch(/\[frame 2 \S+ not readable: not allowed by the site policy/);
    expect((await mcp.call('read_as_markdown', { frame: 1 })).text).toContain('Child frame text');
    const framed = await mcp.call('read_as_markdown', { frame: 2 });
    expect(framed.isError).toBe(true);
    expect(framed.text).toMatch(/^POLICY_DENIED: /);
    // The blocked site never loaded: the frame holds Chrome's error page, which is blind.
    expect(framed.text).toContain('is a browser page: chrome-mcp never reads or acts there');
  });
});

/** An article far longer than the default budget. */
function longArticle(): string {
  const paragraphs = Array.from(
    { length: 400 },
    (_, i) => `<p>Paragraph ${i + 1} of the long article. It says a little about soil, water and light, again.</p>`,
  );
  return `<!doctype html><title>Long article</title><article><h1>Long article</h1>${paragraphs.join('')}</article>`;
}
