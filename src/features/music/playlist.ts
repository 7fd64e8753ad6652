// Internet radio stations often hand out a playlist (M3U, M3U8 or PLS) rather than the stream
// itself: a few lines naming one or more stream addresses, tried in order when one is down.

/** The kinds of playlist a station's address may serve. */
export type PlaylistKind = 'm3u' | 'pls';

/** The most stream addresses kept from one playlist: a station lists a handful of mirrors. */
export const MAX_PLAYLIST_ENTRIES = 20;

/** Whether a Content-Type or a path names a playlist, and which kind. Null: treat it as a stream. */
export function playlistKind(contentType: string, pathname: string): PlaylistKind | null {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'audio/x-scpls' || type === 'application/pls+xml') return 'pls';
  if (['audio/x-mpegurl', 'audio/mpegurl', 'application/x-mpegurl', 'application/vnd.apple.mpegurl'].includes(type)) return 'm3u';
  const path = pathname.toLowerCase();
  if (path.endsWith('.pls')) return 'pls';
  if (path.endsWith('.m3u') || path.endsWith('.m3u8')) return 'm3u';
  return null;
}

/** An http(s) address, resolved against the playlist's own address when relative; null when it is anything else. */
function streamAddress(entry: string, base: string | undefined): string | null {
  try {
    const url = base ? new URL(entry, base) : new URL(entry);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The stream addresses of an M3U or M3U8 playlist, in order: every line that is not blank and not
 * a comment or directive (#EXTM3U, #EXTINF:...). Relative entries are resolved against `base`.
 * Entries that are not http(s) (file paths, rtsp:) are dropped.
 */
export function parseM3u(text: string, base?: string): string[] {
  const urls: string[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const url = streamAddress(line, base);
    if (url && !urls.includes(url)) urls.push(url);
    if (urls.length >= MAX_PLAYLIST_ENTRIES) break;
  }
  return urls;
}

/**
 * The stream addresses of a PLS playlist, by their number (File1=, File2=, ...), whatever order
 * the lines come in. Keys are read without regard to case; other keys (Title1, Length1) are ignored.
 */
export function parsePls(text: string, base?: string): string[] {
  const entries: { index: number; url: string }[] = [];
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const match = /^\s*file(\d+)\s*=\s*(.+?)\s*$/i.exec(raw);
    if (!match?.[1] || !match[2]) continue;
    const url = streamAddress(match[2], base);
    if (url) entries.push({ index: Number(match[1]), url });
  }
  const urls: string[] = [];
  for (const { url } of entries.sort((a, b) => a.index - b.index)) if (!urls.includes(url)) urls.push(url);
  return urls.slice(0, MAX_PLAYLIST_ENTRIES);
}

/** The stream addresses of a playlist of either kind. */
export function parsePlaylist(kind: PlaylistKind, text: string, base?: string): string[] {
  return kind === 'pls' ? parsePls(text, base) : parseM3u(text, base);
}
