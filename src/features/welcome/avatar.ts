// A member's avatar for the welcome card, fetched from Discord's CDN (the sandbox's offline) at the
// URL discord.js builds for them. A slow, large or failing avatar is no avatar: the card draws the
// default one and the welcome goes out.
import type { Services } from '../../core/services';

/** The longest the bot waits for an avatar. */
export const AVATAR_TIMEOUT_MS = 3000;
/** The most bytes an avatar may have (a 256-pixel PNG is far smaller). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** Reads a response's body up to `max` bytes; null past it. */
async function boundedBody(response: Response, max: number): Promise<Buffer | null> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > max || !response.body) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The avatar's bytes at `url`, or null when it does not come in time, is too big or is refused. */
export async function fetchAvatarBytes(url: string, logger: Services['logger']): Promise<Buffer | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(AVATAR_TIMEOUT_MS), redirect: 'error' });
    if (!response.ok) return null;
    return await boundedBody(response, AVATAR_MAX_BYTES);
  } catch (error) {
    logger.debug({ err: error }, 'could not fetch an avatar for the welcome card');
    return null;
  }
}

/** The avatar of a user as the bot sees it (256 pixels, PNG), or null. */
export async function fetchUserAvatar(services: Services, userId: string): Promise<Buffer | null> {
  const user = await services.gateway.client?.users.fetch(userId).catch(() => null);
  if (!user) return null;
  return fetchAvatarBytes(user.displayAvatarURL({ extension: 'png', size: 256, forceStatic: true }), services.logger);
}
