// A downloaded file's name on disk: the one the server or the link asked for, else the URL's last segment, made safe
// for every OS (sanitize-filename: no separators, control or reserved characters, no trailing dots), and here also no
// leading dot (a hidden file), a device name kept readable, and a bound on length that keeps the extension.
import { parse as parseDisposition } from 'content-disposition';
import sanitize from 'sanitize-filename';
import type { PageFile } from '../../../shared/protocol/operations.js';

// Under the 255 bytes most file systems allow, with room for the ` (2)` a name already taken gets.
const MAX_NAME_BYTES = 200;
// Windows device names: sanitize-filename would turn `con.txt` into a bare `_`; a prefix keeps the name readable.
const DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

export function fileNameOf(file: PageFile): string {
  const asked = file.name || dispositionName(file.disposition) || lastSegment(file.url) || 'download';
  return safeName(asked);
}

function safeName(name: string): string {
  const bare = name.replace(/^[.\s]+|[.\s]+$/g, '');
  const named = DEVICE.test(bare) ? `download-${bare}` : bare;
  return sanitize(shortened(named), { replacement: '_' }) || 'download';
}

/** Cut to MAX_NAME_BYTES of UTF-8 by whole characters, the extension kept (sanitize-filename would cut it off). */
function shortened(name: string): string {
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  const ext = /\.[\w-]{1,10}$/.exec(name)?.[0] ?? '';
  const stem = Array.from(name.slice(0, name.length - ext.length));
  while (stem.length > 0 && Buffer.byteLength(stem.join('') + ext) > MAX_NAME_BYTES) stem.pop();
  return stem.join('') + ext;
}

/** RFC 6266 (`filename*` over `filename`); a header that does not parse names nothing. */
function dispositionName(disposition: string | undefined): string | undefined {
  if (!disposition) return undefined;
  try {
    return parseDisposition(disposition).parameters['filename'];
  } catch {
    return undefined;
  }
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
