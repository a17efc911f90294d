// The frame every comparison page is served in: a title, and `report(ok, why)`, which posts the page's own verdict.
/** A page whose script may call `report(ok, why)`; `as` reports for another page (where a journey ends). */
export function page(id: string, title: string, body: string, as = id): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<script>window.report = (ok, why = '') =>
  fetch('/report?page=${as}&ok=' + (ok ? 1 : 0) + '&why=' + encodeURIComponent(why), { keepalive: true });</script>
</head><body>${body}</body></html>`;
}
