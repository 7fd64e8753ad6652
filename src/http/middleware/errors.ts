import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import {
  ConfirmationRequired,
  Conflict,
  StaleVersion,
  DiscordRefused,
  DomainError,
  TooLarge,
  UnsupportedKind,
  FeatureDisabled,
  Forbidden,
  InvalidInput,
  NotFound,
  RateLimited,
  StoreUnavailable,
  summarizeFields,
} from '../../core/errors';
import { discordUnavailable } from '../../bot/discord-errors';
import { failureFields, storeFailure } from '../../core/store-errors';
import type { ApiError } from '../../shared/http';
import type { Logger } from '../../logger';
import { HttpError } from '../errors';
import { zodFieldErrors } from '../../shared/zod-fields';

interface ErrorResponse {
  status: number;
  body: ApiError;
  headers?: Record<string, string>;
}

/**
 * Answers every error as `{ error, message, fields? }` with its status. Domain errors map to
 * their status here, in one place. Unknown errors are logged with their stack and answered 500
 * without internals.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const failure = storeFailure(caught);
      const { status, body, headers } = toResponse(failure ?? discordUnavailable(caught) ?? caught);
      // The store's own trouble is the operator's to fix, not a bug: one line without a stack.
      if (failure) logger.warn({ ...failureFields(failure, caught), method: ctx.method, path: ctx.path }, 'the store failed a request');
      else if (status >= 500) logger.error({ err: caught, method: ctx.method, path: ctx.path }, 'request failed');
      ctx.status = status;
      ctx.body = body;
      for (const [name, value] of Object.entries(headers ?? {})) ctx.set(name, value);
    }
  };
}

/** The HTTP answer of a domain error. */
function fromDomain(error: DomainError): ErrorResponse {
  const answer = (status: number, code: string, fields?: Record<string, string>): ErrorResponse => ({
    status,
    body: { error: code, message: error.message, ...(fields ? { fields } : {}) },
  });
  if (error instanceof InvalidInput) return answer(400, 'validation_error', error.fields);
  if (error instanceof NotFound) return answer(404, 'not_found');
  if (error instanceof Forbidden) return answer(403, 'forbidden');
  if (error instanceof ConfirmationRequired) {
    const asked = answer(409, 'confirmation_required', error.fields);
    return { ...asked, body: { ...asked.body, confirmRoleIds: [...error.roleIds] } };
  }
  if (error instanceof StaleVersion) {
    const stale = answer(409, 'stale_version');
    return { ...stale, body: { ...stale.body, stale: { version: error.version, changes: [...error.changes] } } };
  }
  if (error instanceof Conflict) return answer(409, 'conflict', error.field ? { [error.field]: error.message } : undefined);
  if (error instanceof FeatureDisabled) return answer(409, 'feature_disabled');
  if (error instanceof DiscordRefused) return answer(422, 'discord_refused');
  if (error instanceof TooLarge) return answer(413, error.limit === 'file' ? 'too_large' : 'quota_exceeded');
  if (error instanceof UnsupportedKind) return answer(415, 'unsupported_media_type');
  if (error instanceof StoreUnavailable) {
    // Busy or out of reach passes; a full disk or a read-only file waits for the operator.
    const passing = error.trouble === 'busy' || error.trouble === 'unreachable';
    return { ...answer(503, 'store_unavailable'), ...(passing ? { headers: { 'Retry-After': '5' } } : {}) };
  }
  if (error instanceof RateLimited) return { ...answer(429, 'rate_limited'), headers: { 'Retry-After': String(error.retryAfterSeconds) } };
  return answer(400, 'bad_request');
}

function toResponse(caught: unknown): ErrorResponse {
  if (caught instanceof DomainError) return fromDomain(caught);
  if (caught instanceof HttpError) {
    return {
      status: caught.status,
      body: { error: caught.code, message: caught.message, ...(caught.fields ? { fields: caught.fields } : {}) },
      headers: caught.headers,
    };
  }
  if (caught instanceof ZodError) {
    const fields = zodFieldErrors(caught);
    return { status: 400, body: { error: 'validation_error', message: summarizeFields(fields), fields } };
  }
  // Errors from Koa's helpers and the body parser carry a 4xx status; their messages are safe to show.
  const status = caught instanceof Error && 'status' in caught && typeof caught.status === 'number' ? caught.status : 500;
  if (caught instanceof Error && status >= 400 && status < 500) {
    if (caught instanceof SyntaxError) return { status: 400, body: { error: 'bad_request', message: 'The request body is not valid JSON.' } };
    if (status === 413) return { status, body: { error: 'payload_too_large', message: 'The request body is too large.' } };
    if (status === 415) return { status, body: { error: 'unsupported_media_type', message: 'Send the request body as application/json.' } };
    return { status, body: { error: 'bad_request', message: caught.message } };
  }
  return { status: 500, body: { error: 'internal_error', message: 'Something went wrong on our side.' } };
}
