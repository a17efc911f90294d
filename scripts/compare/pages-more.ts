// The rest of the everyday pages: a hover menu, a canvas, a custom listbox, a web component, an Escape-only modal, an
// infinite feed, a page that blocks its main thread, a long article and a page of links. Each reports its own verdict.
import { page } from './page-kit.js';

/** Where the canvas page's target is, in viewport CSS px. */
export const CANVAS_POINT = { x: 200, y: 160 };
/** What the article says, somewhere in its middle, for the reader to carry back. */
export const ARTICLE_PHRASE = 'amber-falcon';
/** The document the links page's "Annual report 2025" leads to. */
export const REPORT_DOC = 'ar-2025-7f3a';

const filler = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${i + 1}. Harbour towns grew along the coast as trade routes shifted; merchants kept ledgers of ` +
      `grain, timber and salt, and the tides set the rhythm of each working day for the families who lived there.</p>`,
  ).join('\n');

const links = Array.from({ length: 24 }, (_, i) => `<a href="/links-dest?doc=misc-${i}">Archive item ${i + 1}</a>`);

export const MORE_PAGES: Record<string, string> = {
  hover: page(
    'hover',
    'Store',
    `<style>.sub { display: none; } .menu:hover .sub { display: block; }</style>
<nav class=menu style="width:200px"><button>Products</button>
<ul class=sub><li><a href="#laptops" onclick="report(true)">Laptops</a></li><li><a href="#phones">Phones</a></li></ul></nav>`,
  ),
  canvas: page(
    'canvas',
    'Canvas',
    `<p>Click the red square.</p>
<canvas id=c width=400 height=300 style="position:absolute;left:0;top:60px;background:#eee"></canvas>
<script>const g = c.getContext('2d'); g.fillStyle = 'red'; g.fillRect(180, 80, 40, 40);
c.onclick = (e) => { const hit = e.offsetX >= 180 && e.offsetX <= 220 && e.offsetY >= 80 && e.offsetY <= 120;
  report(hit, 'clicked canvas at ' + e.offsetX + ',' + e.offsetY); };</script>`,
  ),
  listbox: page(
    'listbox',
    'Shipping',
    `<div id=cb role=combobox aria-label="Country" aria-expanded=false aria-controls=lb tabindex=0
  style="width:200px;border:1px solid #888;padding:4px">Choose a country</div>
<ul id=lb role=listbox aria-label="Countries" hidden>
${['France', 'Norway', 'Peru', 'Japan'].map((c) => `<li role=option aria-selected=false>${c}</li>`).join('')}</ul>
<script>cb.onclick = () => { lb.hidden = !lb.hidden; cb.setAttribute('aria-expanded', String(!lb.hidden)); };
lb.onclick = (e) => { const o = e.target.closest('[role=option]'); if (!o) return;
  cb.textContent = o.textContent; lb.hidden = true; report(o.textContent === 'Norway', 'chose ' + o.textContent); };</script>`,
  ),
  component: page(
    'component',
    'Checkout',
    `<p>Apply the promo code SAVE10.</p><promo-box></promo-box>
<script>customElements.define('promo-box', class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<label>Promo code <input id=code></label> <button id=apply>Apply code</button>';
    root.getElementById('apply').onclick = () => {
      const v = root.getElementById('code').value; report(v === 'SAVE10', 'applied ' + v); };
  }
});</script>`,
  ),
  modal: page(
    'modal',
    'Product',
    `<button id=buy onclick="report(!document.getElementById('overlay'), 'clicked under the modal')">Buy now</button>
<div id=overlay style="position:fixed;inset:0;background:rgba(0,0,0,.5)">
<div role=dialog aria-modal=true aria-label="Newsletter" style="background:#fff;margin:80px auto;width:300px;padding:20px">
<h2>Join our newsletter</h2><p>Press Escape to close.</p></div></div>
<script>addEventListener('keydown', (e) => { if (e.key === 'Escape') document.getElementById('overlay')?.remove(); });</script>`,
  ),
  feed: page(
    'feed',
    'Feed',
    `<p>Open Post 42.</p><div id=feed></div>
<script>let shown = 0;
const more = () => { for (let i = 0; i < 10 && shown < 60; i++) { const b = document.createElement('button');
  b.textContent = 'Post ' + ++shown; b.style.cssText = 'display:block;height:80px;margin:4px';
  const n = shown; b.onclick = () => report(n === 42, 'opened post ' + n); feed.append(b); } };
more();
addEventListener('scroll', () => { if (innerHeight + scrollY >= document.body.scrollHeight - 100) more(); });</script>`,
  ),
  busy: page(
    'busy',
    'Report builder',
    `<button id=crunch>Crunch numbers</button><p id=out></p>
<script>crunch.onclick = () => { setTimeout(() => {
  // Six seconds of a main thread that answers nothing: no input, no script, no paint.
  const end = Date.now() + 6000; while (Date.now() < end);
  out.textContent = 'Totals ready'; const b = document.createElement('button');
  b.textContent = 'See totals'; b.onclick = () => report(true); document.body.append(b); }, 50); };</script>`,
  ),
  article: page(
    'article',
    'The harbour towns',
    `<nav>${links.slice(0, 8).join(' | ')}</nav><aside>Advertisement: buy more boats</aside>
<article><h1>The harbour towns</h1>${filler(14)}
<p>Readers of this issue: the access phrase for the quiz is ${ARTICLE_PHRASE}.</p>${filler(14)}</article>
<form onsubmit="event.preventDefault(); report(phrase.value.trim() === '${ARTICLE_PHRASE}', 'answered ' + phrase.value)">
<label>Access phrase <input id=phrase></label> <button>Submit phrase</button></form>`,
  ),
  links: page(
    'links',
    'Investors',
    `<nav>${links.slice(0, 12).join(' ')}</nav><main><h1>Investors</h1>
<p>Our <a href="/links-dest?doc=${REPORT_DOC}">Annual report 2025</a> and the
<a href="/links-dest?doc=ar-2024-0c1d">Annual report 2024</a> are out.</p></main><footer>${links.slice(12).join(' ')}</footer>`,
  ),
  'links-dest': page(
    'links-dest',
    'Document',
    `<p>Document</p><script>const doc = new URLSearchParams(location.search).get('doc');
report(doc === '${REPORT_DOC}', 'opened ' + doc);</script>`,
    'links',
  ),
};
