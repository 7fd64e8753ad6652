// A GET that sees the answer as it went over the wire: supertest (superagent) decodes gzip and
// brotli bodies itself, which hides what a compression test needs to see.
import { once } from 'node:events';
import { createServer, get, type IncomingHttpHeaders, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The answer: status, headers and the body bytes as sent. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Serves `handler` (e.g. a Koa app's callback()) on a free port for one GET of `path` with `headers`. */
export async function rawGet(handler: RequestListener, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const server = createServer(handler).listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const request = get({ host: '127.0.0.1', port, path, headers });
    const [response] = (await once(request, 'response')) as [IncomingMessage];
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    return { status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
