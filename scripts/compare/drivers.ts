// The same moves on each server, in each one's own tools: an element is found as a model finds it, by reading the
// snapshot and taking the ref on the line that names it. Only the tool calls differ between the two columns.
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Session } from './mcp.js';

export interface Driver {
  open(url: string): Promise<void>;
  snapshot(): Promise<string>;
  /** Clicks the element whose snapshot line names `label`; answers what the click said. */
  click(label: string): Promise<string>;
  clickAt(x: number, y: number): Promise<void>;
  hover(label: string): Promise<void>;
  type(label: string, text: string, submit?: boolean): Promise<void>;
  /** Replaces the code editor's buffer with `code`. */
  setCode(code: string): Promise<void>;
  press(key: string): Promise<void>;
  dialog(accept: boolean, text?: string): Promise<void>;
  upload(label: string, path: string): Promise<void>;
  /** Takes the file behind `label` and answers its content, read from the path the tool named. */
  download(label: string): Promise<string>;
  drag(from: string, to: string): Promise<void>;
  /** Makes the tab the last click opened current; `clicked` is what that click said. */
  useNewTab(clicked: string): Promise<void>;
  /** The page as the server gives it to be read, and its links. */
  read(): Promise<string>;
  links(): Promise<string>;
  scrollDown(): Promise<void>;
  waitFor(text: string): Promise<void>;
}

/** The ref on the first snapshot line that names `label` (its quoted name first, then anywhere on the line). */
export function refIn(snapshot: string, label: string): string {
  const lines = snapshot.split('\n').filter((line) => /\[ref=[\w-]+\]/.test(line));
  const line = lines.find((each) => each.includes(`"${label}`)) ?? lines.find((each) => each.includes(label));
  const ref = line?.match(/\[ref=([\w-]+)\]/)?.[1];
  if (!ref)
    throw new Error(`no ref for "${label}" in the snapshot (${snapshot.length} chars): ${snapshot.slice(0, 400)}`);
  return ref;
}

/** The file Playwright saved under its output folder, once the download it announced has finished. */
async function savedIn(s: Session, folder: string): Promise<string> {
  for (let i = 0; i < 10; i++) {
    const name = readdirSync(folder, { recursive: true }).find((each) => String(each).endsWith('report.txt'));
    if (name) return `${folder}/${String(name)}`;
    await s.call('browser_wait_for', { time: 1 });
  }
  throw new Error(`no report.txt under ${folder}`);
}

export function ourDriver(s: Session): Driver {
  let opened = false;
  const ref = async (label: string) => refIn((await s.call('snapshot')).text, label);
  return {
    async open(url) {
      await s.call(opened ? 'navigate' : 'tab_new', { url });
      opened = true;
    },
    snapshot: async () => (await s.call('snapshot')).text,
    click: async (label) => (await s.call('click', { ref: await ref(label) })).text,
    clickAt: async (x, y) => void (await s.call('click', { x, y })),
    hover: async (label) => void (await s.call('hover', { ref: await ref(label) })),
    type: async (label, text, submit) => void (await s.call('type', { ref: await ref(label), text, submit })),
    async setCode(code) {
      await s.call('wait_for', { editorReady: true });
      await s.call('type', { mode: 'set', text: code });
    },
    press: async (key) => void (await s.call('press', { keys: key })),
    dialog: async (accept, text) => void (await s.call('dialog', { accept, ...(text ? { text } : {}) })),
    upload: async (label, path) => void (await s.call('upload_file', { ref: await ref(label), paths: [path] })),
    async download(label) {
      const saved = await s.call('download', { ref: await ref(label) });
      const path = saved.data?.['path'];
      if (typeof path !== 'string') throw new Error(`download named no path: ${saved.text.slice(0, 400)}`);
      return readFile(path, 'utf8');
    },
    async drag(from, to) {
      const snapshot = (await s.call('snapshot')).text;
      await s.call('drag', { ref: refIn(snapshot, from), to: { ref: refIn(snapshot, to) } });
    },
    async useNewTab(clicked) {
      const id = clicked.match(/new tab (\S+)/)?.[1];
      if (!id) throw new Error(`the click named no new tab: ${clicked.slice(0, 400)}`);
      await s.call('tab_select', { tab: id });
    },
    read: async () => (await s.call('read_as_markdown')).text,
    links: async () => (await s.call('extract_links')).text,
    scrollDown: async () => void (await s.call('scroll', { to: 'bottom' })),
    waitFor: async (text) => void (await s.call('wait_for', { text })),
  };
}

export function playwrightDriver(s: Session, cwd: string): Driver {
  const snapshot = async () => (await s.call('browser_snapshot')).text;
  const ref = async (label: string) => refIn(await snapshot(), label);
  const click = async (label: string) => (await s.call('browser_click', { target: await ref(label) })).text;
  return {
    open: async (url) => void (await s.call('browser_navigate', { url })),
    snapshot,
    click,
    clickAt: async (x, y) => void (await s.call('browser_mouse_click_xy', { x, y })),
    hover: async (label) => void (await s.call('browser_hover', { target: await ref(label) })),
    type: async (label, text, submit) =>
      void (await s.call('browser_type', { target: await ref(label), text, submit })),
    async setCode(code) {
      const editor = await ref('textbox');
      await s.call('browser_click', { target: editor });
      await s.call('browser_press_key', { key: 'Control+a' });
      await s.call('browser_type', { target: editor, text: code });
    },
    press: async (key) => void (await s.call('browser_press_key', { key })),
    dialog: async (accept, text) =>
      void (await s.call('browser_handle_dialog', { accept, ...(text ? { promptText: text } : {}) })),
    async upload(label, path) {
      await click(label);
      await s.call('browser_file_upload', { paths: [path] });
    },
    async download(label) {
      await s.call('browser_click', { target: await ref(label) });
      return readFile(await savedIn(s, `${cwd}/out`), 'utf8');
    },
    async drag(from, to) {
      const text = await snapshot();
      await s.call('browser_drag', { startTarget: refIn(text, from), endTarget: refIn(text, to) });
    },
    async useNewTab() {
      const listed = (await s.call('browser_tabs', { action: 'list' })).text;
      const indexes = [...listed.matchAll(/^- (\d+):/gm)].map((m) => Number(m[1]));
      if (indexes.length < 2) throw new Error(`no second tab listed: ${listed.slice(0, 400)}`);
      await s.call('browser_tabs', { action: 'select', index: Math.max(...indexes) });
    },
    read: snapshot,
    links: snapshot,
    scrollDown: async () => void (await s.call('browser_mouse_wheel', { deltaX: 0, deltaY: 5000 })),
    waitFor: async (text) => void (await s.call('browser_wait_for', { text })),
  };
}
