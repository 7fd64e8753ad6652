// multipart/form-data as Discord reads it from a bot: the JSON in a `payload_json` part and each file
// in a part named `files[n]`, whose `n` an entry of the payload's `attachments` names by `id`.

/** A file part of a multipart request. */
export interface UploadedFile {
  /** The part's name, e.g. `files[0]`. */
  field: string;
  filename: string;
  contentType: string | null;
  bytes: Buffer;
}

/** A multipart body read: the JSON of `payload_json` (or the other text fields) and its files. */
export interface MultipartBody {
  json: unknown;
  files: UploadedFile[];
}

/** The boundary of a multipart Content-Type, or null. */
function boundaryOf(contentType: string): string | null {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2] ?? null;
}

/** A Content-Disposition parameter (`name`, `filename`), unquoted. */
function dispositionParam(headers: string, param: string): string | null {
  const match = new RegExp(`;\\s*${param}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(headers) ?? new RegExp(`;\\s*${param}=([^;\\r\\n]+)`, 'i').exec(headers);
  return match?.[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : null;
}

/**
 * Splits a multipart body into its parts. `payload_json` is parsed as JSON (a SyntaxError for bad
 * JSON); without it the text fields form the JSON object, as Discord also takes form fields.
 */
export function parseMultipart(contentType: string, raw: Buffer): MultipartBody {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw new SyntaxError('multipart body without a boundary');
  const delimiter = Buffer.from(`--${boundary}`);
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  let payload: string | null = null;
  let start = raw.indexOf(delimiter);
  while (start !== -1) {
    const partStart = start + delimiter.length;
    if (raw.subarray(partStart, partStart + 2).toString() === '--') break;
    const next = raw.indexOf(delimiter, partStart);
    if (next === -1) break;
    // The part is between the CRLF after the delimiter and the CRLF before the next one.
    const part = raw.subarray(partStart + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    if (split !== -1) {
      const headers = part.subarray(0, split).toString('utf8');
      const body = part.subarray(split + 4);
      const name = dispositionParam(headers, 'name') ?? '';
      const filename = dispositionParam(headers, 'filename');
      if (filename !== null) {
        const type = /^content-type:\s*([^\r\n]+)/im.exec(headers)?.[1]?.trim() ?? null;
        files.push({ field: name, filename, contentType: type, bytes: Buffer.from(body) });
      } else if (name === 'payload_json') payload = body.toString('utf8');
      else fields[name] = body.toString('utf8');
    }
    start = next;
  }
  return { json: payload !== null ? JSON.parse(payload) : fields, files };
}
