// Requests Node's HTTP parser refuses before Koa sees them (a URL or headers past the 16 kB limit,
// a malformed request line) are answered like every other refusal: the API's error JSON, not
// Node's bare status line.
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiError } from '../shared/http';

/** The status and body of a request the parser refused, as Node's default handler picks the status. */
function refusalOf(code: string | undefined): { status: number; body: ApiError } {
  if (code === 'HPE_HEADER_OVERFLOW')
    return { status: 431, body: { error: 'request_too_large', message: 'The URL or the headers of the request are too large.' } };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, body: { error: 'request_timeout', message: 'The request took too long to arrive.' } };
  return { status: 400, body: { error: 'bad_request', message: 'The request is not valid HTTP.' } };
}

/** Answers the parser's refusals on `server` with JSON and closes the connection. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, body } = refusalOf(error.code);
    const json = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ` +
        `${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  });
}
