import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import { ChannelType } from 'discord-api-types/v10';
import { escapeHtml as escape } from './html';
import { basePath } from './mount';
import { hasOwnHost } from './origin';
import type { SandboxServices } from './services';
import type { GuildRecord, MessageRecord } from './types';

const STYLE = `body{font-family:system-ui,sans-serif;background:#313338;color:#dbdee1;margin:0;display:flex;min-height:100vh}
nav{width:220px;background:#2b2d31;padding:16px;flex:none}nav h1{font-size:15px;color:#fff;margin:0 0 12px}
nav a{display:block;color:#949ba4;text-decoration:none;padding:4px 8px;border-radius:4px}nav a.on,nav a:hover{background:#404249;color:#fff}
main{flex:1;padding:16px 24px;min-width:0}h2{color:#fff;font-size:18px;margin:0 0 16px}.note{color:#949ba4;font-size:13px}
.msg{padding:8px;border-radius:6px;margin-bottom:4px}.msg:target{background:rgba(250,166,26,.12);outline:1px solid #faa61a}
.who{color:#fff;font-weight:600}.bot{background:#5865f2;color:#fff;font-size:10px;border-radius:3px;padding:1px 4px;margin-left:4px}
.time{color:#949ba4;font-size:12px;margin-left:8px}.text{white-space:pre-wrap;overflow-wrap:anywhere;margin-top:2px}
.mention{background:rgba(88,101,242,.3);color:#c9cdfb;border-radius:3px;padding:0 2px}
.embed{max-width:520px;background:#2b2d31;border-left:4px solid #1e1f22;border-radius:4px;padding:8px 12px;margin-top:4px}
.embed .author{font-size:13px;font-weight:600;color:#fff}.embed .title{font-weight:700;color:#fff}.embed .desc{font-size:14px;white-space:pre-wrap}
.embed .footer{font-size:12px;color:#949ba4;margin-top:4px}.reactions{display:flex;gap:4px;margin-top:4px}
.reaction{background:#2b2d31;border:1px solid #3f4147;border-radius:8px;padding:1px 6px;font-size:13px}`;

/**
 * Scrolls to the message the URL names and marks it (`:target`). One constant script, the message
 * id read from the page, so a Content-Security-Policy can allow it by its hash.
 */
const MARK_SCRIPT = "const id='m-'+document.querySelector('main').dataset.mark;document.getElementById(id)?.scrollIntoView({block:'center'});location.hash=id";
/** The CSP source that allows the channel view's script (the mount's policy lists it). */
export const VIEWER_SCRIPT_HASH = `sha256-${createHash('sha256').update(MARK_SCRIPT).digest('base64')}`;

/** Mentions as pills with the names they point at. */
function withMentions(text: string, guild: GuildRecord, userName: (id: string) => string): string {
  return escape(text).replace(
    /&lt;@!?(\d+)&gt;|&lt;@&amp;(\d+)&gt;/g,
    (_match, userId?: string, roleId?: string) =>
      `<span class="mention">@${escape(userId ? userName(userId) : (guild.roles.get(roleId ?? '')?.name ?? 'unknown-role'))}</span>`,
  );
}

function renderMessage(message: MessageRecord, guild: GuildRecord, userName: (id: string) => string, isBot: boolean): string {
  const embeds = message.embeds
    .map((embed) => {
      const color = typeof embed.color === 'number' ? ` style="border-left-color:#${embed.color.toString(16).padStart(6, '0')}"` : '';
      return `<div class="embed"${color}>${embed.author?.name ? `<div class="author">${escape(embed.author.name)}</div>` : ''}${
        embed.title ? `<div class="title">${escape(embed.title)}</div>` : ''
      }${embed.description ? `<div class="desc">${withMentions(embed.description, guild, userName)}</div>` : ''}${
        embed.footer?.text ? `<div class="footer">${escape(embed.footer.text)}</div>` : ''
      }</div>`;
    })
    .join('');
  const reactions = [...message.reactions.values()]
    .map((reaction) => `<span class="reaction">${escape(reaction.emoji.id ? `:${reaction.emoji.name}:` : reaction.emoji.name)} ${reaction.userIds.size}</span>`)
    .join('');
  return [
    `<article class="msg" id="m-${message.id}">`,
    `<span class="who">${escape(userName(message.authorId))}</span>${isBot ? '<span class="bot">APP</span>' : ''}`,
    `<time class="time" datetime="${message.timestamp}">${escape(new Date(message.timestamp).toUTCString())}</time>`,
    message.content ? `<div class="text">${withMentions(message.content, guild, userName)}</div>` : '',
    embeds,
    reactions ? `<div class="reactions">${reactions}</div>` : '',
    '</article>',
  ].join('');
}

/**
 * A read-only look at the sandbox's channels, so the links the dashboard gives ("Open" a welcome,
 * an announcement, the rules message) lead somewhere offline: `/channels/:guildId/:channelId` shows
 * the channel's last 100 messages, and `/:messageId` marks one of them.
 */
export function viewerMiddleware(services: SandboxServices): Middleware {
  return async (ctx, next) => {
    const match = /^\/channels\/(\d+)(?:\/(\d+))?(?:\/(\d+))?\/?$/.exec(ctx.path);
    if (!match || ctx.method !== 'GET') return next();
    if (!hasOwnHost(ctx, services.publicOrigins)) {
      ctx.status = 403;
      ctx.body = "The sandbox answers only on 127.0.0.1, localhost, [::1] or the dashboard's public host.";
      return;
    }
    const base = basePath(ctx);
    const { world } = services;
    const guild = world.guilds.get(match[1] ?? '');
    if (!guild) {
      ctx.status = 404;
      ctx.body = 'No such server in the sandbox.';
      return;
    }
    const textChannels = [...guild.channels.values()]
      .filter((channel) => channel.type === ChannelType.GuildText || channel.type === ChannelType.GuildAnnouncement)
      .sort((a, b) => a.position - b.position);
    const channel = guild.channels.get(match[2] ?? '') ?? textChannels[0];
    const userName = (id: string) => {
      const member = guild.members.get(id);
      const user = world.users.get(id);
      return member?.nick ?? user?.globalName ?? user?.username ?? 'deleted-user';
    };
    const nav = textChannels
      .map((c) => `<a href="${base}/channels/${guild.id}/${c.id}"${c.id === channel?.id ? ' class="on"' : ''}>#${escape(c.name)}</a>`)
      .join('');
    const messages = channel ? world.messages.list(channel.id).slice(-100) : [];
    const body = channel
      ? messages.map((message) => renderMessage(message, guild, userName, message.authorId === world.botUserId)).join('') ||
        '<p class="note">No messages yet.</p>'
      : '<p class="note">This server has no text channel.</p>';
    ctx.type = 'html';
    const title = `${escape(channel ? `#${channel.name}` : guild.name)} · ${escape(guild.name)} · Sandbox Discord`;
    ctx.body = [
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>${STYLE}</style></head>`,
      `<body><nav><h1>${escape(guild.name)}</h1>${nav}</nav>`,
      `<main${match[3] ? ` data-mark="${match[3]}"` : ''}><h2>${channel ? `#${escape(channel.name)}` : ''}</h2>`,
      `<p class="note">The sandbox Discord: a read-only view of the channel's last 100 messages.</p>${body}</main>`,
      match[3] ? `<script>${MARK_SCRIPT}</script>` : '',
      '</body></html>',
    ].join('');
  };
}
