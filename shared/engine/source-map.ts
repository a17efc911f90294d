// The original files a script's source map names, read when the map travels inside the script (a data: URL): a map
// elsewhere is named by its URL, not fetched, so reading sources sends nothing on the page's behalf.

/** Bigger than any map a page inlines by hand; past it the list is not worth the parse. */
const MAX_MAP_CHARS = 8 * 1024 * 1024;

/** The `sources` of an inline map, with its sourceRoot; undefined when the map is not inline or not readable. */
export function inlineMapSources(sourceMapURL: string): string[] | undefined {
  const data = /^data:([^,]*),(.*)$/s.exec(sourceMapURL);
  if (!data || sourceMapURL.length > MAX_MAP_CHARS) return undefined;
  try {
    const text = data[1]!.endsWith(';base64')
      ? new TextDecoder().decode(Uint8Array.from(atob(data[2]!), (char) => char.charCodeAt(0)))
      : decodeURIComponent(data[2]!);
    const map = JSON.parse(text) as { sources?: unknown; sourceRoot?: unknown };
    if (!Array.isArray(map.sources)) return undefined;
    const root = typeof map.sourceRoot === 'string' && map.sourceRoot !== '' ? map.sourceRoot.replace(/\/?$/, '/') : '';
    return map.sources.filter((source): source is string => typeof source === 'string').map((source) => root + source);
  } catch {
    // A page's map that does not parse names nothing; the script is still listed.
    return undefined;
  }
}

/** How a listing names a script's map: its original files (the first few), or where the map is. */
export function mapNote(sourceMapURL: string, shown = 5): string | undefined {
  if (sourceMapURL === '') return undefined;
  const sources = inlineMapSources(sourceMapURL);
  if (!sources) {
    return sourceMapURL.startsWith('data:') ? 'map: inline, unreadable' : `map: ${sourceMapURL.replace(/[?#].*$/, '')}`;
  }
  const more = sources.length > shown ? `, +${sources.length - shown} more` : '';
  return `map: ${sources.slice(0, shown).join(', ')}${more}`;
}
