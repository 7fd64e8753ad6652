import { featureState } from '../../core/feature';
import { GuildListCache, type AuthServices } from './service';

/** Sign-in's state: what it needs from the services, and each user's server list from Discord, kept a minute. */
export const authState = featureState('auth', (services): AuthServices => ({
  store: services.store,
  discord: services.oauth,
  secrets: services.secrets,
  logger: services.logger.child({ face: 'auth' }),
  guildLists: new GuildListCache(),
}));
