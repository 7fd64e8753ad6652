import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import type { ApiError } from '../../shared/http';
import type { Logger } from '../../logger';
import { HttpError } from '../errors';
import { zodFields } from './validate';

/**
 * Answers every error as `{ error, message, fields? }` with its status. Unknown errors are
 * logged with their stack and answered 500 without internals.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const { status, body, headers } = toResponse(caught);
      if (status >= 500) logger.error({ err: caught, method: ctx.method, path: ctx.path }, 'request failed');
      ctx.status = status;
      ctx.body = body;
      for (const [name, value] of Object.entries(headers ?? {})) ctx.set(name, value);
    }
  };
}

function toResponse(caught: unknown): { status: number; body: ApiError; headers?: Record<string, string> } {
  if (caught instanceof HttpError) {
    return {
      status: caught.status,
      body: { error: caught.code, message: caught.message, ...(caught.fields ? { fields: caught.fields } : {}) },
      headers: caught.headers,
    };
  }
  if (caught instanceof ZodError) {
    const fields = zodFields(caught);
    return { status: 400, body: { error: 'validation_error', message: summarize(fields), fields } };
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

/** One sentence from field messages: "name is required; price must be a number". */
export function summarize(fields: Record<string, string>): string {
  const parts = Object.entries(fields).map(([field, message]) => `${field} ${message}`);
  return parts.length ? parts.join('; ') : 'The request is invalid.';
}
