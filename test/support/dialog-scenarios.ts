// JavaScript dialogs through a real MCP client, the same in each backend: alert, confirm and prompt from a click in the
// top frame and in a cross-origin iframe, a beforeunload guard on navigate and close, a dialog from a timer, a tool
// that needs the page while one is open, and an answer with none open. Each call must end on its own: before dialogs
// were raced, every one of these hung until the client gave up.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, it } from 'vitest';
import type { FixtureServer } from './fixture-server.js';
import { textOf, type CallResult } from './tool-result.js';

// A call that hangs on a dialog fails here, well before the client's own 60 s; a busy box answers far sooner.
const CALL_MS = 20_000;

const BUTTONS = `
<button id=alert onclick="window.got = (alert('Saved!'), 'alerted')">alert</button>
<button id=confirm onclick="window.got = confirm('Delete 3 items?')">confirm</button>
<button id=prompt onclick="window.got = prompt('Your name?', 'bob')">prompt</button>
<button id=later onclick="setTimeout(() => alert('tick'), 1000)">later</button>`;

/** A page that asks once per tab, on load, for a dialog already open when the engine comes; its title says it asks. */
export const ASKS_ON_LOAD = `<!doctype html><title>calm</title><button>go</button><script>
onload = () => setTimeout(() => {
  if (sessionStorage.asked) return;
  sessionStorage.asked = 1;
  document.title = 'asking';
  confirm('Before you came?');
}, 0);
</script>`;

/** The pages the scenarios use, served on both of the fixture server's sites. */
export function serveDialogPages(fixtures: FixtureServer): void {
  fixtures.serve('/dialog-child', { body: `<!doctype html><title>child</title>${BUTTONS}` });
  fixtures.serve('/dialogs', {
    body: `<!doctype html><title>dialogs</title>${BUTTONS}
<iframe src="${fixtures.crossOrigin}/dialog-child" style="width:500px;height:200px"></iframe>`,
  });
  fixtures.serve('/dialog-guard', {
    body: `<!doctype html><title>guard</title><button id=touch onclick="window.touched = true">touch</button>
<a id=away href="/dialog-child">away</a>
<script>addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = ''; });</script>`,
  });
}

type Call = (name: string, args?: Record<string, unknown>) => Promise<CallResult>;

function caller(client: () => Client): Call {
  return (name, args = {}) => client().callTool({ name, arguments: args }, undefined, { timeout: CALL_MS });
}

function ok(result: CallResult): string {
  const text = textOf(result);
  expect(result.isError, text).toBeFalsy();
  return text;
}

function failed(result: CallResult): string {
  const text = textOf(result);
  expect(result.isError, text).toBe(true);
  return text;
}

/** What the page (or the named frame) holds in `window.got`, read by a script in it. */
async function got(call: Call, frame: string | number): Promise<string> {
  return ok(await call('eval', { expression: 'window.got', frame }));
}

const CASES = [
  { kind: 'alert', button: '#alert', answer: { accept: true }, message: 'Saved!', sees: '"alerted"' },
  { kind: 'confirm', button: '#confirm', answer: { accept: false }, message: 'Delete 3 items?', sees: 'false' },
  {
    kind: 'prompt',
    button: '#prompt',
    answer: { accept: true, text: 'alice' },
    message: 'Your name?',
    sees: '"alice"',
  },
] as const;

/** Registers the scenarios as tests of the calling file; `client` and `fixtures` are read once its hooks ran. */
export function dialogScenarios(client: () => Client, fixtures: () => FixtureServer): void {
  const call = caller(client);

  for (const where of ['top frame', 'cross-origin iframe'] as const) {
    const frame = where === 'top frame' ? 0 : 'dialog-child';
    it(`returns at once from a click that opens alert, confirm or prompt in the ${where}, and answers it`, async () => {
      ok(await call('tab_new', { url: fixtures().url('dialogs') }));
      for (const each of CASES) {
        const opened = ok(await call('click', { selector: each.button, frame }));
        expect(opened).toContain(`→ dialog ${each.kind} "${each.message}"`);
        expect(opened).toContain('(answer with dialog)');
        if (each.kind === 'prompt') expect(opened).toContain('(default "bob")');
        if (frame) expect(opened).toContain(`in a frame of ${fixtures().crossOrigin}`);
        else expect(opened).not.toContain('in a frame');
        const answered = ok(await call('dialog', each.answer));
        expect(answered).toMatch(new RegExp(`^${each.answer.accept ? 'accepted' : 'dismissed'} ${each.kind} `));
        // What the click went on to do once the dialog let it.
        expect(answered).toMatch(/\nclick: clicked /);
        expect(await got(call, frame)).toBe(each.sees);
      }
      ok(await call('tab_close'));
    });
  }

  it('refuses a script while a dialog is open, at once, and says how to answer it', async () => {
    ok(await call('tab_new', { url: fixtures().url('dialogs') }));
    ok(await call('click', { selector: '#confirm', frame: 0 }));
    for (const tool of ['eval', 'snapshot', 'screenshot'] as const) {
      const refused = failed(await call(tool, tool === 'eval' ? { expression: '1' } : {}));
      expect(refused).toMatch(new RegExp(`^DIALOG_OPEN: The page shows confirm "Delete 3 items\\?"; ${tool} cannot`));
      expect(refused).toContain('Next: Call `dialog {accept: true}` (OK) or `dialog {accept: false}` (Cancel).');
    }
    // Tools that need nothing of the page still answer, and the listing names the dialog.
    expect(ok(await call('tabs'))).toMatch(/\* ?\+ \S+ "dialogs" .* — shows confirm "Delete 3 items\?"/);
    ok(await call('dialog', { accept: true }));
    expect(await got(call, 0)).toBe('true');
    ok(await call('tab_close'));
  });

  it('stops a batch at the step that opened a dialog', async () => {
    ok(await call('tab_new', { url: fixtures().url('dialogs') }));
    const steps = [
      { tool: 'click', args: { selector: '#confirm', frame: 0 } },
      { tool: 'click', args: { selector: '#alert', frame: 0 } },
    ];
    const batch = ok(await call('batch', { steps }));
    expect(batch).toBe('1 click: → dialog confirm "Delete 3 items?" (answer with dialog)\nstep 2 did not run');
    ok(await call('dialog', { accept: true }));
    expect(await got(call, 0)).toBe('true');
    ok(await call('tab_close'));
  });

  it('names a dialog the page opened from a timer at the next call on the tab', async () => {
    ok(await call('tab_new', { url: fixtures().url('dialogs') }));
    // The click only starts the timer: the alert opens a second later, while no call runs.
    expect(ok(await call('click', { selector: '#later', frame: 0 }))).not.toContain('dialog');
    const listed = await untilText(() => call('tabs'), 'shows alert "tick"');
    expect(listed).toContain('shows alert "tick"');
    const refused = failed(await call('snapshot'));
    expect(refused).toMatch(/^DIALOG_OPEN: The page shows alert "tick", opened by the page itself; snapshot cannot/);
    expect(ok(await call('dialog', { accept: true }))).toBe('accepted alert "tick"');
    expect(ok(await call('snapshot'))).toContain('button "later"');
    ok(await call('tab_close'));
  });

  it('leaves past a beforeunload guard on navigate, asks about it on a link, and closes a guarded tab', async () => {
    ok(await call('tab_new', { url: fixtures().url('dialog-guard') }));
    // The guard only shows once the page had a person's gesture: a click gives it one.
    ok(await call('click', { selector: '#touch' }));
    const left = ok(await call('navigate', { url: fixtures().url('dialog-child') }));
    expect(left).toContain(fixtures().url('dialog-child'));
    expect(left).toContain(`(left past the page's "leave site?" guard)`);

    ok(await call('navigate', { url: fixtures().url('dialog-guard') }));
    ok(await call('click', { selector: '#touch' }));
    // The model did not ask to leave by clicking a link: the guard is its to answer.
    const asked = ok(await call('click', { selector: '#away' }));
    expect(asked).toContain('→ dialog beforeunload "Leave site? Changes you made may not be saved."');
    expect(ok(await call('dialog', { accept: false }))).toMatch(/^dismissed beforeunload /);
    expect(ok(await call('eval', { expression: 'location.pathname' }))).toContain('/dialog-guard');

    const closed = ok(await call('tab_close'));
    expect(closed).toMatch(/^closed \S+/);
  });

  it('says so when dialog is called with none open', async () => {
    ok(await call('tab_new', { url: fixtures().url('dialogs') }));
    const none = failed(await call('dialog', { accept: true }));
    expect(none).toMatch(/^NO_DIALOG: No dialog is open on that tab\./);
    expect(none).toContain('Next: ');
    ok(await call('tab_close'));
  });
}

/** Calls `read` until its text holds `wanted` (the page's own timer decides when), within the call bound. */
async function untilText(read: () => Promise<CallResult>, wanted: string): Promise<string> {
  const deadline = Date.now() + CALL_MS;
  let text = '';
  while (Date.now() < deadline) {
    text = textOf(await read());
    if (text.includes(wanted)) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return text;
}
