// The inline-handler pages the late-handler tests put in the page, in both backends: an image whose `onerror` attribute
// sends to the watched site once its load fails, a moment after the eval that set it returned.

/**
 * An image that fails to load a moment from now (the fixture server's slow answer is no image), whose error handler (an
 * attribute) fetches `target` and then sets the page's `marker`.
 */
export function failingImage(target: string, marker: string): string {
  const send = `fetch('${target}', { mode: 'no-cors' }).catch(() => undefined).finally(() => (window.${marker} = true))`;
  return `<img src="/slow?ms=1500&for=${marker}" onerror="${send}">`;
}

/** An image never inserted in any document, kept by the page, whose error handler calls the page's own `pageSend`. */
export function detachedImage(target: string, marker: string): string {
  const handler = `pageSend('${target}').finally(() => (window.${marker} = true))`;
  return `window.kept = new Image(); kept.setAttribute('onerror', ${JSON.stringify(handler)});
    kept.src = '/slow?ms=1500&for=${marker}'; 0`;
}

/** Code that appends `html` to the page's body, now. */
export function appending(html: string): string {
  return `document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(html)}); 0`;
}
