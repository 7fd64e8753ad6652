// The sandbox process of scripts/bench/music-load.ts: sandbox-process.ts's demo world plus
// SANDBOX_MUSIC_GUILDS guilds made for music, each with the bot in it, the demo admin as its owner
// (so the admin's dashboard session can switch music on and upload there), a #general, a voice
// channel and a listener of its own who will sit in it and ask for /play. The seed makes only two
// guilds with the bot, and the control API makes no guilds, so they are added to the world here,
// before any bot connects (its READY then lists them like the others).
// Env: as sandbox-process.ts, plus SANDBOX_MUSIC_GUILDS (default 10) and SANDBOX_VOICE_CERT_DIR
// (where the voice certificate is kept: the product's process must be started trusting it).
import {
  ChannelType,
  GuildDefaultMessageNotifications,
  GuildExplicitContentFilter,
  GuildSystemChannelFlags,
  GuildVerificationLevel,
  Locale,
} from 'discord-api-types/v10';
import { startSandbox } from '../../src/sandbox';
import { BOT_PERMISSIONS, EVERYONE_PERMISSIONS } from '../../src/sandbox/seed';
import type { World } from '../../src/sandbox/world';
import type { MusicGuild } from './music-kit';

/** Adds a guild owned by the demo admin, with the bot, #general, a voice channel and a listener. */
function addMusicGuild(world: World, index: number): MusicGuild {
  const ownerId = world.demo.adminUserId;
  const id = world.snowflakes.next();
  world.addGuild({
    id,
    name: `Music Bench ${index + 1}`,
    icon: null,
    ownerId,
    description: null,
    roles: new Map([[id, { id, name: '@everyone', permissions: EVERYONE_PERMISSIONS, position: 0, color: 0, hoist: false, mentionable: false, botId: null }]]),
    channels: new Map(),
    members: new Map(),
    bans: new Map(),
    emojis: new Map(),
    auditLog: [],
    voice: new Map(),
    afkChannelId: null,
    afkTimeout: 300,
    systemChannelId: null,
    rulesChannelId: null,
    verificationLevel: GuildVerificationLevel.Low,
    defaultMessageNotifications: GuildDefaultMessageNotifications.OnlyMentions,
    explicitContentFilter: GuildExplicitContentFilter.AllMembers,
    preferredLocale: Locale.EnglishUS,
    systemChannelFlags: GuildSystemChannelFlags.SuppressJoinNotificationReplies,
  });
  const text = world.structure.createChannel(id, { name: 'general', type: ChannelType.GuildText });
  const voice = world.structure.createChannel(id, { name: 'Music', type: ChannelType.GuildVoice });
  world.addMember(id, { id: ownerId, username: '' });
  world.addBotToGuild(id, BOT_PERMISSIONS);
  const listener = world.addMember(id, { username: `listener_${index + 1}` });
  return { guildId: id, textChannelId: text.id, voiceChannelId: voice.id, listenerId: listener.userId };
}

const memberCount = Number(process.env.SANDBOX_MEMBERS ?? 300);
const redirectUris = (process.env.SANDBOX_REDIRECT_URIS ?? '').split(',').filter(Boolean);
const sandbox = await startSandbox({ port: 0, memberCount, redirectUris, ...(process.env.SANDBOX_RELAXED ? { rateLimits: 'relaxed' as const } : {}) });
const musicGuilds = Array.from({ length: Number(process.env.SANDBOX_MUSIC_GUILDS ?? 10) }, (_, i) => addMusicGuild(sandbox.world, i));
process.stdout.write(
  `${JSON.stringify({
    url: sandbox.url,
    apiBase: sandbox.apiBase,
    cdnBase: sandbox.cdnBase,
    gatewayUrl: sandbox.gatewayUrl,
    botToken: sandbox.botToken,
    oauth: { clientId: sandbox.oauth.clientId, clientSecret: sandbox.oauth.clientSecret },
    demo: sandbox.world.demo,
    voiceCaFile: sandbox.voiceCaFile,
    musicGuilds,
  })}\n`,
);
process.on('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
