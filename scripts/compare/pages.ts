// The everyday pages, each judging itself: dialogs, files in and out, drags, a new tab, a pushState app, late content,
// and a code editor. Each reports success only when the page saw the person's intent carried out.
import { page } from './page-kit.js';
import { MORE_PAGES } from './pages-more.js';

/** The file the upload page expects, by name and content. */
export const UPLOAD = { name: 'invoice.txt', content: 'upload-code-7' };
/** The code the editor page expects its buffer to hold, indentation kept. */
export const EDITOR_CODE = 'def answer():\n    return 42\n';

const DIALOGS: Record<string, string> = {
  alert: page('alert', 'Save draft', `<button onclick="alert('Draft saved'); report(true)">Save draft</button>`),
  confirm: page(
    'confirm',
    'Delete items',
    `<button onclick="report(confirm('Delete 3 items?'), 'confirm answered Cancel')">Delete items</button>`,
  ),
  prompt: page(
    'prompt',
    'Rename',
    `<p>Rename the project to <b>heron</b>.</p>
<button onclick="const v = prompt('New name?', 'untitled'); report(v === 'heron', 'prompt answered ' + v)">Rename</button>`,
  ),
  beforeunload: page(
    'beforeunload',
    'Unsaved note',
    `<label>Note <input id=note oninput="window.dirty = true"></label>
<script>addEventListener('beforeunload', (e) => { if (window.dirty) { e.preventDefault(); e.returnValue = ''; } });</script>`,
  ),
  'beforeunload-left': page(
    'beforeunload-left',
    'Left',
    `<p>You left the note.</p><script>report(true)</script>`,
    'beforeunload',
  ),
};

const FILES: Record<string, string> = {
  upload: page(
    'upload',
    'Attach invoice',
    `<label>Attach invoice <input type=file id=file></label>
<script>file.onchange = async () => {
  const f = file.files[0];
  const text = f ? await f.text() : '';
  report(f?.name === '${UPLOAD.name}' && text.trim() === '${UPLOAD.content}', 'got ' + f?.name + ': ' + text);
};</script>`,
  ),
  download: page(
    'download',
    'Reports',
    `<p><a href="/files/report.txt">Download report</a></p>
<p>Enter the confirmation code from the report:</p>
<form onsubmit="event.preventDefault(); report(code.value.trim() === 'kestrel-9', 'code ' + code.value)">
<label>Confirmation code <input id=code></label> <button>Check code</button></form>`,
  ),
};

const DRAGS: Record<string, string> = {
  drag: page(
    'drag',
    'Board',
    `<div id=card draggable=true style="width:120px;padding:10px;background:#def">Card: Fix login</div>
<div id=done style="width:200px;height:80px;margin-top:40px;background:#efe" aria-label="Done column" role=region>Done column</div>
<script>card.ondragstart = (e) => e.dataTransfer.setData('text/plain', 'card');
done.ondragover = (e) => e.preventDefault();
done.ondrop = (e) => { e.preventDefault(); report(e.dataTransfer.getData('text/plain') === 'card', 'dropped without data'); };</script>`,
  ),
  pointer: page(
    'pointer',
    'Pointer slider',
    `<div id=track style="position:relative;width:400px;height:40px;background:#ddd;touch-action:none">
<div id=knob role=slider aria-label="Volume knob" aria-valuenow=0 style="position:absolute;left:0;width:40px;height:40px;background:#48c"></div>
<div id=max role=img aria-label="Loud end" style="position:absolute;right:0;width:40px;height:40px;background:#c84"></div></div>
<script>let from = null;
knob.onpointerdown = (e) => { from = e.clientX; knob.setPointerCapture(e.pointerId); };
knob.onpointermove = (e) => { if (from !== null) knob.style.left = Math.max(0, Math.min(360, e.clientX - from)) + 'px'; };
knob.onpointerup = () => { from = null; const at = parseInt(knob.style.left); report(at > 300, 'knob at ' + at); };</script>`,
  ),
};

const APPS: Record<string, string> = {
  newtab: page('newtab', 'Orders', `<a href="/receipt" target="_blank">Open receipt</a>`),
  receipt: page('receipt', 'Receipt', `<button onclick="report(true)">Confirm receipt</button>`, 'newtab'),
  pushstate: page(
    'pushstate',
    'Shop app',
    `<nav><a href="/pushstate/home" data-to=home>Home</a> <a href="/pushstate/settings" data-to=settings>Settings</a></nav><main id=view></main>
<script>const views = {
  home: '<h1>Home</h1>',
  settings: '<h1>Settings</h1><button id=save>Save settings</button>',
};
const render = () => {
  view.innerHTML = views[location.pathname.split('/')[2]] ?? views.home;
  const save = document.getElementById('save');
  // Reached by pushState from the page first loaded, not by loading the settings URL itself.
  if (save) save.onclick = () => report(booted !== '/pushstate/settings' && location.pathname === '/pushstate/settings', 'loaded at ' + booted);
};
document.querySelectorAll('nav a').forEach((a) => (a.onclick = (e) => { e.preventDefault(); history.pushState({}, '', a.href); render(); }));
addEventListener('popstate', render);
const booted = location.pathname;
render();</script>`,
  ),
  delayed: page(
    'delayed',
    'Loading',
    `<p id=status>Loading your results…</p>
<script>setTimeout(() => {
  status.textContent = 'Results ready';
  const b = document.createElement('button');
  b.textContent = 'Show results';
  b.onclick = () => report(true);
  document.body.append(b);
}, 2500);</script>`,
  ),
  editor: page(
    'editor',
    'Code editor',
    `<link rel=stylesheet href="/codemirror5/codemirror.css"><script src="/codemirror5/codemirror.js"></script>
<p>Write the function into the editor.</p><div id=host style="width:600px;border:1px solid #ccc"></div>
<script>window.cm = CodeMirror(host, { value: '# your code\\n', indentUnit: 4 });
cm.on('change', () => { if (cm.getValue() === ${JSON.stringify(EDITOR_CODE)}) report(true); });</script>`,
  ),
};

export const PAGES: Record<string, string> = { ...DIALOGS, ...FILES, ...DRAGS, ...APPS, ...MORE_PAGES };
