// The srcdoc pages the late-srcdoc tests have set into a frame of the page's own, in both backends: by a timer an eval
// leaves (the agent's) or by the page itself. Each page sends to `target` its own way as it loads, then tells its parent
// `marker`, which the maker's page records as a window flag of that name.

export type SrcdocSend = 'fetch' | 'img' | 'form';

/** The srcdoc page: a fetch, an image, or a form it submits at once, to `target`; then `marker` to its parent. */
export function srcdocSending(kind: SrcdocSend, target: string, marker: string): string {
  const tell = `parent.postMessage('${marker}', '*')`;
  const pages: Record<SrcdocSend, string> = {
    fetch:
      `<script>fetch(${JSON.stringify(target)}, { mode: 'no-cors' }).catch(() => undefined).finally(() => ${tell})</scr` +
      `ipt>`,
    img: `<img src="${target}" onload="${tell}" onerror="${tell}">`,
    form:
      `<form action="${target}"><input name="k" value="secret"></form><script>document.forms[0].submit(); ${tell}</scr` +
      `ipt>`,
  };
  return pages[kind];
}

/** Adds a frame of the page's own, `id`, with nothing in it: run as the page's code, with no eval open. */
export function ownFrame(id: string): string {
  return `document.body.append(Object.assign(document.createElement('iframe'), { id: ${JSON.stringify(id)} })); 0`;
}

/**
 * Sets `html` as the srcdoc of frame `id` a second from now (`by`: `srcdoc`, the property, or `setAttribute` taken from
 * another frame's realm), and turns the page's `marker` true once the page told it.
 */
export function srcdocLater(
  id: string,
  html: string,
  marker: string,
  by: 'srcdoc' | 'setAttribute' = 'srcdoc',
): string {
  const frame = `document.getElementById(${JSON.stringify(id)})`;
  const set =
    by === 'srcdoc'
      ? `${frame}.srcdoc = ${JSON.stringify(html)}`
      : `frames[0].Element.prototype.setAttribute.call(${frame}, 'srcdoc', ${JSON.stringify(html)})`;
  return `addEventListener('message', (event) => { if (event.data === ${JSON.stringify(marker)}) window[event.data] = true; });
    setTimeout(() => { ${set}; }, 1000); 0`;
}
