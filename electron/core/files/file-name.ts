// A downloaded file's name on disk: the one the server or the link asked for, else the URL's last segment, made safe
// for every OS (no separators, control or reserved characters, no leading dots, no device names, bounded length).
// Hand-written: sanitize-filename and content-disposition (both in the tree through other packages) are not ours.
import type { PageFile } from '../../../shared/protocol/operations.js';

const MAX_NAME_CHARS = 120;
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

export function fileNameOf(file: PageFile): string {
  const asked = file.name || dispositionName(file.disposition) || lastSegment(file.url) || 'download';
  return safeName(asked);
}

export function safeName(name: string): string {
  let safe = name
    .replace(/[/\\?%*:|"<>\p{Cc}]/gu, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
    .trim();
  if (safe.length > MAX_NAME_CHARS) {
    const ext = /\.[\w-]{1,10}$/.exec(safe)?.[0] ?? '';
    safe = safe.slice(0, MAX_NAME_CHARS - ext.length) + ext;
  }
  if (safe === '' || RESERVED.test(safe)) safe = `download${safe ? `-${safe}` : ''}`;
  return safe;
}

/** RFC 6266: `filename*=UTF-8''…` wins over `filename="…"`. */
function dispositionName(disposition: string | undefined): string | undefined {
  if (!disposition) return undefined;
  const extended = /filename\*\s*=\s*[\w-]+'[^']*'([^;]+)/i.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed escape: fall back to the plain form.
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(disposition);
  if (!plain) return undefined;
  return plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1]!.trim();
}

function lastSegment(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const segment = new URL(url).pathname.split('/').pop();
    return segment ? decodeURIComponent(segment) : undefined;
  } catch {
    return undefined;
  }
}
