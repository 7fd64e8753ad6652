import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware } from 'koa';
import type { Logger } from '../../logger';
import { summarizeFields } from '../../core/errors';
import { fieldSentences } from '../../shared/field-words';
import { HttpError } from '../errors';
import { BODY_CODINGS, requestCoding } from '../encoding';

/** The codings a body is read in, for a sentence: "gzip, deflate or br". */
const CODINGS_IN_WORDS = `${BODY_CODINGS.slice(0, -1).join(', ')} or ${BODY_CODINGS.at(-1) ?? ''}`;

/** Largest JSON body accepted; every dashboard request is far below it. */
const JSON_LIMIT = '256kb';

/**
 * Where valid JSON has the keys the parser refuses to protect object prototypes (`__proto__`, and
 * `constructor` holding a `prototype`), as field paths: "moderationDm.__proto__". Walked with a
 * stack, since the body may be nested thousands deep.
 */
function prototypeKeys(text: string): string[] {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return [];
  }
  const found: string[] = [];
  const stack: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  for (let next = stack.pop(); next && found.length < 10; next = stack.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    for (const [key, inner] of Object.entries(next.value)) {
      const path = next.path ? `${next.path}.${key}` : key;
      const poisoned = key === '__proto__' || (key === 'constructor' && typeof inner === 'object' && inner !== null && Object.hasOwn(inner, 'prototype'));
      if (poisoned) found.push(path);
      else stack.push({ value: inner, path });
    }
  }
  return found;
}

/**
 * Why a body could not be read, as the client's error: a body that is not what its
 * Content-Encoding says is 400, an encoding we do not speak 415, valid JSON with a prototype key
 * a 400 naming where. Bad JSON, a wrong content type and an oversized body keep their own
 * statuses (see the error middleware).
 */
function bodyError(error: unknown, ctx: Context): unknown {
  if (!(error instanceof Error)) return error;
  const text = 'body' in error && typeof error.body === 'string' ? error.body : '';
  const poisoned = error instanceof SyntaxError && text ? prototypeKeys(text) : [];
  if (poisoned.length > 0) {
    const fields = Object.fromEntries(poisoned.map((path) => [path, 'is not allowed']));
    return new HttpError(400, 'validation_error', summarizeFields(fields), fieldSentences(fields));
  }
  const status = 'status' in error && typeof error.status === 'number' ? error.status : undefined;
  const coding = requestCoding(ctx.get('Content-Encoding'));
  if (status === 415 && /Content-Encoding/i.test(error.message)) {
    // RFC 9110 section 12.5.3: a 415 for a coding may say which codings are read.
    const readable = { 'Accept-Encoding': BODY_CODINGS.join(', ') };
    const message =
      coding.kind === 'stacked'
        ? `The request body is encoded more than once (${coding.codings.join(', then ')}); send it encoded once, as ${CODINGS_IN_WORDS}, or not at all.`
        : `The request body is encoded as ${coding.kind === 'unsupported' ? coding.coding : ctx.get('Content-Encoding')}, which this server does not ` +
          `read; send it as ${CODINGS_IN_WORDS}, or not encoded.`;
    return new HttpError(415, 'unsupported_media_type', message, undefined, readable);
  }
  const encoding = coding.kind === 'one' ? coding.coding : ctx.get('Content-Encoding');
  // zlib and brotli failures carry a code (Z_DATA_ERROR, ERR__ERROR_FORMAT_...) and no status.
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (status === undefined && (code.startsWith('Z_') || code.startsWith('ERR__ERROR') || code === 'ERR_BROTLI')) {
    return new HttpError(400, 'bad_request', `The request body is not valid ${encoding}.`);
  }
  return error;
}

/**
 * Parses JSON bodies. A body that cannot be decoded is answered as the client's mistake and
 * logged at debug: it says nothing about the health of the server.
 */
export function jsonBody(logger: Logger): Middleware {
  const parser = bodyParser({
    enableTypes: ['json'],
    // DELETE too, so a body sent there is read and refused like any the route does not declare.
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
    jsonLimit: JSON_LIMIT,
    encoding: 'utf-8',
    onError(error, ctx) {
      const mapped = bodyError(error, ctx);
      logger.debug({ method: ctx.method, path: ctx.path, reason: error.message }, 'request body could not be decoded');
      throw mapped;
    },
  });
  return (ctx, next) => {
    // The parser (inflation) matches the header's exact text, so "GZIP" or "gzip, identity" would be
    // refused: the header it reads is the one coding the list comes to, or stays as sent for a refusal.
    const coding = requestCoding(ctx.get('Content-Encoding'));
    if (coding.kind === 'one' && ctx.req.headers['content-encoding'] !== undefined) ctx.req.headers['content-encoding'] = coding.coding;
    return parser(ctx, next);
  };
}

/**
 * Marks the requests of routes that take a file as their body (GuildRouteSpec.rawBody): the JSON
 * parser leaves them alone and the same-origin guard takes any Content-Type for them. Such a body
 * is read as it arrives by its route, so it is taken as sent: a Content-Encoding is refused (415)
 * before anything else, as the parser refuses a coding it does not read (audio is compressed already).
 */
export function rawBodies(takesRawBody: (method: string, path: string) => boolean): Middleware {
  return (ctx, next) => {
    if (!takesRawBody(ctx.method, ctx.path)) return next();
    const coding = requestCoding(ctx.get('Content-Encoding'));
    if (coding.kind !== 'one' || coding.coding !== 'identity') {
      throw new HttpError(
        415,
        'unsupported_media_type',
        `The file is sent encoded (Content-Encoding: ${ctx.get('Content-Encoding')}); send it as it is, not encoded.`,
        undefined,
        { 'Accept-Encoding': 'identity' },
      );
    }
    ctx.state.rawBody = true;
    ctx.disableBodyParser = true;
    return next();
  };
}
