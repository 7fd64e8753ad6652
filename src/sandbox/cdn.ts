import type { Middleware } from 'koa';

const COLORS = ['#5865f2', '#3ba55c', '#faa61a', '#ed4245', '#eb459e', '#747f8d'];

/**
 * Serves `/cdn/...` (avatars, default avatars, icons) as small generated SVG images, so the dashboard
 * shows distinct avatars offline. The file extension in the URL is ignored; the Content-Type decides.
 */
export function cdnMiddleware(): Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/cdn/')) return next();
    const key = ctx.path.split('/').slice(2).join('/');
    let hash = 0;
    for (const ch of key) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
    const color = COLORS[hash % COLORS.length] ?? '#5865f2';
    ctx.type = 'image/svg+xml';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body =
      `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">` +
      `<circle cx="64" cy="64" r="64" fill="${color}"/><circle cx="64" cy="50" r="22" fill="#fff" opacity="0.9"/>` +
      `<ellipse cx="64" cy="104" rx="38" ry="26" fill="#fff" opacity="0.9"/></svg>`;
  };
}
