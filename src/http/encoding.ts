// Content codings (RFC 9110 section 8.4): the negotiation of an answer's (Accept-Encoding, section
// 12.5.3), shared by the precompressed assets (static.ts) and the compressed API answers
// (middleware/compress.ts), and the reading of a request body's Content-Encoding (middleware/body.ts).

/** A content coding we send. */
export type Encoding = 'br' | 'gzip';

/** Each coding the header names, with its weight (q). */
function weights(acceptEncoding: string): Map<string, number> {
  const weighed = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    if (!name) continue;
    const q = params.map((param) => /^q\s*=\s*([0-9.]+)$/i.exec(param)?.[1]).find((value) => value !== undefined);
    weighed.set(name.toLowerCase(), q === undefined ? 1 : Number(q) || 0);
  }
  return weighed;
}

/**
 * The coding to answer with: of `offered` (ours, in our order of preference), the one the request
 * weighs highest, unless it names the uncompressed answer (identity) with a higher weight; identity
 * when the request accepts none of them or sends no Accept-Encoding at all. Between equal weights,
 * the first offered wins, and a coding wins over identity.
 */
export function chooseEncoding(acceptEncoding: string | undefined, offered: readonly Encoding[]): Encoding | 'identity' {
  if (!acceptEncoding) return 'identity';
  const weighed = weights(acceptEncoding);
  const weightOf = (coding: string) => weighed.get(coding) ?? weighed.get('*') ?? 0;
  let best: { coding: Encoding; q: number } | undefined;
  for (const coding of offered) {
    const q = weightOf(coding);
    if (q > 0 && (!best || q > best.q)) best = { coding, q };
  }
  // Identity is always acceptable; it beats a coding only when the header weighs it higher.
  return best && best.q >= weightOf('identity') ? best.coding : 'identity';
}

/** A coding a request body may come in: the ones the body parser inflates, and none. */
export type BodyCoding = 'identity' | 'gzip' | 'deflate' | 'br';

/** The codings a request body is read in, for a 415's Accept-Encoding and its message. */
export const BODY_CODINGS = ['gzip', 'deflate', 'br'] as const;

/** What a request's Content-Encoding asks of the body parser: one coding it reads, one it does not, or several applied in turn. */
export type RequestCoding = { kind: 'one'; coding: BodyCoding } | { kind: 'unsupported'; coding: string } | { kind: 'stacked'; codings: string[] };

/**
 * Reads a Content-Encoding header as RFC 9110 says: a comma-separated list of codings in the order
 * they were applied, case-insensitive, spaces around each and empty elements ignored; `identity`
 * changes nothing and `x-gzip` is gzip (section 8.4.1.3). Several real codings are reported as
 * such: the parser undoes one.
 */
export function requestCoding(header: string | undefined): RequestCoding {
  const codings = (header ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .map((coding) => (coding === 'x-gzip' ? 'gzip' : coding));
  const [only] = codings;
  if (only === undefined) return { kind: 'one', coding: 'identity' };
  if (codings.length > 1) return { kind: 'stacked', codings };
  const known = BODY_CODINGS.find((coding) => coding === only);
  return known ? { kind: 'one', coding: known } : { kind: 'unsupported', coding: only };
}
