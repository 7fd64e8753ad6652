import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Keys whose values are credentials or raw client bytes, in any object that is logged. */
const SECRET_KEYS = new RegExp(
  `^(${[
    'cookie',
    'set-cookie',
    'authorization',
    'proxy-authorization',
    'x-signature-256',
    'rawpacket',
    'access_?token',
    'refresh_?token',
    'token',
    'client_?secret',
    'secret',
    'password',
    'api_?key',
  ].join('|')})$`,
  'i',
);

/** Credentials as they appear inside text: header lines, auth schemes, session cookies, webhook tokens. */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/((?:set-)?cookie\s*[:=]\s*)(?:[^\s;,]+(?:;\s*)?)+/gi, '$1[redacted]'],
  [/((?:proxy-)?authorization\s*[:=]\s*)(?:(?:Bearer|Bot|Basic)\s+)?\S+/gi, '$1[redacted]'],
  [/\b(Bearer|Bot|Basic)\s+[\w.~+/=-]{8,}/g, '$1 [redacted]'],
  [/\b((?:__Host-)?sid=)[^\s;,]+/g, '$1[redacted]'],
  [/(\/(?:webhooks|interactions)\/\d+\/)[^/\s?]+/g, '$1[redacted]'],
];

/** The text with every credential it carries replaced by [redacted]. */
export function scrubText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

const MAX_DEPTH = 6;

/**
 * An error as the log keeps it: its type, message, stack, code and status (and Discord's method
 * and URL), scrubbed, with its cause. Everything else an error carries (raw packets, headers,
 * request bodies, SQL parameters) is dropped: it is where clients' credentials hide.
 */
function serializeError(error: Error, depth: number): Record<string, unknown> {
  const fields = error as Error & Record<string, unknown>;
  const out: Record<string, unknown> = { type: error.constructor?.name ?? error.name, message: scrubText(error.message) };
  if (error.stack) out.stack = scrubText(error.stack);
  for (const key of ['code', 'status', 'statusCode', 'method']) {
    const value = fields[key];
    if (typeof value === 'string' || typeof value === 'number') out[key] = typeof value === 'string' ? scrubText(value) : value;
  }
  if (typeof fields.url === 'string') out.url = scrubText(fields.url);
  if (error.cause !== undefined && depth < MAX_DEPTH) out.cause = scrub(error.cause, depth + 1);
  return out;
}

/** A copy of a logged value with credentials removed, whatever field carries them. */
function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return serializeError(value, depth);
  if (value instanceof Date) return value;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[${value.byteLength} bytes]`;
  if (depth >= MAX_DEPTH) return '[nested]';
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = SECRET_KEYS.test(key) ? '[redacted]' : scrub(item, depth + 1);
  return out;
}

/**
 * Creates the process logger: JSON lines on stdout (or `destination`), one child per face (http,
 * bot, sandbox). Every entry is scrubbed of credentials before it is written.
 */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    formatters: { log: (entry: Record<string, unknown>) => scrub(entry) as Record<string, unknown> },
    // The formatter above has already turned errors into scrubbed plain objects.
    serializers: { err: (value: unknown) => value },
    hooks: {
      logMethod(this: Logger, args: unknown[], method: (...parts: unknown[]) => void) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg)),
        );
      },
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
