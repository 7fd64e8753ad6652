// Content-coding negotiation (Accept-Encoding, RFC 9110 section 12.5.3), shared by the
// precompressed assets (static.ts) and the compressed API answers (middleware/compress.ts).

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
