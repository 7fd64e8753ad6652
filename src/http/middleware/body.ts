import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware } from 'koa';
import type { Logger } from '../../logger';
import { HttpError } from '../errors';

/** Largest JSON body accepted; every dashboard request is far below it. */
const JSON_LIMIT = '256kb';

/**
 * Why a body could not be read, as the client's error: a body that is not what its
 * Content-Encoding says is 400, an encoding we do not speak 415. Bad JSON, a wrong content type
 * and an oversized body keep their own statuses (see the error middleware).
 */
function bodyError(error: unknown, ctx: Context): unknown {
  if (!(error instanceof Error)) return error;
  const status = 'status' in error && typeof error.status === 'number' ? error.status : undefined;
  const encoding = ctx.get('Content-Encoding').trim().toLowerCase() || 'identity';
  if (status === 415 && /Content-Encoding/i.test(error.message)) {
    return new HttpError(415, 'unsupported_media_type', `Content-Encoding ${encoding} is not supported; send the body unencoded or as gzip, deflate or br.`);
  }
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
  return bodyParser({
    enableTypes: ['json'],
    jsonLimit: JSON_LIMIT,
    encoding: 'utf-8',
    onError(error, ctx) {
      const mapped = bodyError(error, ctx);
      logger.debug({ method: ctx.method, path: ctx.path, reason: error.message }, 'request body could not be decoded');
      throw mapped;
    },
  });
}
