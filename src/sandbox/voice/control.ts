import { ControlError, controlGuild } from '../control-errors';
import { noContent, ok, type Router } from '../router';
import type { SandboxServices } from '../services';

/** The default window of `dominantHz` and `level`. */
const DEFAULT_WINDOW_SECONDS = 3;

/**
 * What voice channels heard, and what the voice server does to the bot (for tests of a player's
 * robustness): `GET|DELETE /guilds/:guildId/voice/audio`, `POST /guilds/:guildId/voice/bot/server-change`
 * and `POST /guilds/:guildId/voice/bot/kick`.
 */
export function registerVoiceAudioControls(router: Router, services: SandboxServices): void {
  const { voice } = services;

  router.add('GET', '/guilds/:guildId/voice/audio', 'none', ({ params, query }) => {
    const guild = controlGuild(services, params.guildId ?? '');
    const raw = query.get('windowSeconds');
    const windowSeconds = raw === null ? DEFAULT_WINDOW_SECONDS : Number(raw);
    if (!Number.isFinite(windowSeconds) || windowSeconds <= 0 || windowSeconds > 15) {
      throw new ControlError(400, 'invalid_query', 'windowSeconds must be a number of seconds above 0, at most 15.', { windowSeconds: 'Between 0 and 15.' });
    }
    return ok({ channels: voice.report(guild.id, windowSeconds) });
  });

  router.add('DELETE', '/guilds/:guildId/voice/audio', 'none', ({ params }) => {
    voice.audio.reset(controlGuild(services, params.guildId ?? '').id);
    return noContent();
  });

  const notInVoice = () => new ControlError(409, 'bot_not_in_voice', 'The bot is not in a voice channel of this guild.');

  router.add('POST', '/guilds/:guildId/voice/bot/server-change', 'none', ({ params }) => {
    if (!voice.changeServer(controlGuild(services, params.guildId ?? '').id)) throw notInVoice();
    return noContent();
  });

  router.add('POST', '/guilds/:guildId/voice/bot/kick', 'none', ({ params }) => {
    if (!voice.kickBot(controlGuild(services, params.guildId ?? '').id)) throw notInVoice();
    return noContent();
  });
}
