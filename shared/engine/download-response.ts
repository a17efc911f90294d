// Tells from a document response's status and headers whether Chrome will save it as a file rather than show it.

interface Header {
  name: string;
  value: string;
}

// Text Chrome saves instead of showing (Chromium's unsupported text types, net/base/mime_util.cc).
const SAVED_TEXT = new Set([
  'text/calendar',
  'text/x-calendar',
  'text/x-vcalendar',
  'text/vcalendar',
  'text/vcard',
  'text/x-vcard',
  'text/directory',
  'text/ldif',
  'text/qif',
  'text/x-qif',
  'text/x-csv',
  'text/x-vcf',
  'text/rtf',
  'text/comma-separated-values',
  'text/csv',
  'text/tab-separated-values',
  'text/tsv',
  'text/ofx',
  'text/vnd.sun.j2me.app-descriptor',
  'text/x-ms-iqy',
  'text/x-ms-odc',
  'text/x-ms-rqy',
  'text/x-ms-contact',
]);

// Images Blink decodes; a tab navigated to any other image type saves it.
const SHOWN_IMAGES = new Set([
  'image/png',
  'image/apng',
  'image/jpeg',
  'image/jpg',
  'image/pjpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-ms-bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'image/x-xbitmap',
  'image/svg+xml',
]);

// Everything else a tab shows: XML and JSON (with their +xml / +json kinds), scripts as text, PDF, media, mail archives.
const SHOWN =
  /^(text\/[^;]*|audio\/.*|video\/.*|application\/(xhtml\+xml|xml|json|javascript|ecmascript|x-javascript|pdf)|[a-z]+\/[^;]*\+(xml|json)|multipart\/(x-mixed-replace|related)|message\/rfc822)$/;

/**
 * A response becomes a download when the server says `Content-Disposition: attachment` or sends a type no tab can
 * show. A response without a type is sniffed by Chrome from its bytes, which a guard holding only the headers cannot
 * see: it is taken as shown. Redirects and empty answers (204, 205) navigate nowhere and save nothing.
 */
export function isDownloadResponse(status: number, headers: readonly Header[]): boolean {
  if ((status >= 300 && status < 400) || status === 204 || status === 205) return false;
  const disposition = headerValue(headers, 'content-disposition');
  if (disposition !== undefined && /^\s*attachment\s*(;|$)/i.test(disposition)) return true;
  const type = headerValue(headers, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  if (!type) return false;
  if (type.startsWith('image/')) return !SHOWN_IMAGES.has(type);
  if (SAVED_TEXT.has(type)) return true;
  return !SHOWN.test(type);
}

function headerValue(headers: readonly Header[], name: string): string | undefined {
  return headers.find((header) => header.name.toLowerCase() === name)?.value;
}
