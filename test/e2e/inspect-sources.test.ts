// inspect and sources through a real MCP client on stdio, in both backends, on a site the policy lets the agent only
// read beside a blocked one: rules, listeners and scripts of the page, nothing of the blocked site (its frame, its
// stylesheet, its script), and planted secrets (a password field's value, an API key in a script) never shown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { BACKENDS, startMcp, type McpRun } from '../support/mcp-backends.js';

/** Planted in inspect-page.html and inspect-app.js; neither may reach the model. */
const PLANTED = ['Hunter2PlantedPw9', '4eC39HqLyjWDarjtT1zdp7dc'];
/** What only the blocked site holds. */
const BLOCKED = ['localhost', 'dotted', 'OtherSiteScriptMarker', 'ChildScriptMarker', 'inspect-child', 'chrome-error'];

describe.each(BACKENDS)('inspect and sources over the %s backend', (backend) => {
  let fixtures: FixtureServer;
  let mcp: McpRun;
  const seen: string[] = [];

  /** A call that must succeed; everything it answered is kept for the checks on what never shows. */
  async function call(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const { text, isError, data } = await mcp.call(name, args);
    seen.push(text, JSON.stringify(data ?? null));
    expect(isError, text).toBe(false);
    return text;
  }

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    const port = new URL(fixtures.origin).port;
    mcp = await startMcp(backend, [
      { site: `127.0.0.1:${port}`, level: 'read' },
      { site: `localhost:${port}`, level: 'blocked' },
    ]);
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
    await fixtures?.close();
  });

  it('opens the page, whose scripts the listing has once they ran', async () => {
    await call('tab_new', { url: fixtures.url('inspect-page.html') });
    await expect.poll(() => call('sources'), { timeout: 15_000 }).toContain('/inspect-app.js');
  });

  it('inspects an element: its rules with file:line and the overridden one marked, and its listeners', async () => {
    const text = await call('inspect', { selector: '#save' });
    expect(text.split('\n')[0]).toBe('<button> in f0');
    expect(text).toContain(
      '\n  #save /inspect-page.css:9 { color: red; margin-top: 10px; background-color: yellow (overridden) }\n',
    );
    expect(text).toContain(
      '\n  .card /inspect-page.css:3 { color: blue (overridden); padding: 4px 8px; margin: 2px }\n',
    );
    expect(text).toMatch(/\nlisteners:\n {2}click \(capture, once\) \/inspect-app\.js:3:16 \(#\d+\)\n/);
    expect(text).toMatch(/\nbox: [\d.]+×25 at /);
    const styles = await call('inspect', { selector: '#save', styles: ['color', 'display'] });
    expect(styles).toContain('\nstyles: color: rgb(255, 0, 0); display: inline-block\n');
  });

  it("lists, searches and reads the page's scripts, with the source map's files", async () => {
    const listing = await call('sources');
    expect(listing).toMatch(/\n#\d+ f0 \d+B \/inspect-app\.js map: src\/app\.ts, src\/util\.ts(\n|$)/);
    expect(listing).toMatch(/\n#\d+ f0 \d+B \/inspect-page\.html:\d+ \(inline\)(\n|$)/);
    const found = await call('sources', { query: 'marker' });
    expect(found).toMatch(/\n#\d+ \/inspect-app\.js:9: window\.appMarker = 'AppScriptMarker';/);
    const read = await call('sources', { action: 'read', url: 'inspect-app', line: 3, lines: 2 });
    expect(read).toMatch(
      /^#\d+ f0 \/inspect-app\.js lines 3-4 of 1-12; map: src\/app\.ts, src\/util\.ts\n3: function onSave\(\) \{\n/,
    );
  });

  it('never shows a planted secret: the password field value, and the API key wherever the script is shown', async () => {
    const field = await call('inspect', { selector: '#pw' });
    expect(field).toContain('value="[value hidden]"');
    const whole = await call('sources', { action: 'read', url: 'inspect-app' });
    expect(whole).toMatch(/\n11: window\.stripeKey = '\S*\[redacted/);
    const found = await call('sources', { query: 'stripeKey' });
    expect(found).toMatch(/\n#\d+ \/inspect-app\.js:11: /);
    for (const secret of PLANTED) expect(seen.join('\n'), secret).not.toContain(secret);
  });

  it('shows nothing of the blocked site: its frame is refused, its scripts and stylesheet never listed', async () => {
    const framed = await mcp.call('inspect', { selector: 'p', frame: 1 });
    expect(framed.isError).toBe(true);
    expect(framed.text).toMatch(/^POLICY_DENIED: /);
    const listing = await call('sources');
    // The blocked site's script loaded into the page (and its frame holds Chrome's error page): both left out.
    expect(listing).toMatch(/^sources: 2 scripts, \d+ from sites the policy keeps from you left out\n/);
    await call('sources', { query: 'marker' });
    await call('sources', { query: 'Marker', frame: 1 });
    const rules = await call('inspect', { selector: '#save' });
    expect(rules).toContain('\n  (1 from stylesheets of sites the policy keeps from you left out)\n');
    for (const blocked of BLOCKED) expect(seen.join('\n'), blocked).not.toContain(blocked);
  });
});
