import { Events } from 'discord.js';
import { listener, type Feature } from '../../core/feature';
import { applyPresence, readStatus } from './presence';
import { settingsRoutes } from './routes';

/** Shows the stored status message as the bot's presence once it is connected. */
const restorePresence = listener(Events.ClientReady, 'RestorePresence', async (services, client) => {
  applyPresence(client, await readStatus(services));
});

/** Every guild's settings (Bot Settings and each feature page's), their history, export, import, backup and reset. */
export const settingsFeature: Feature = {
  name: 'settings',
  routes: settingsRoutes,
  listeners: [restorePresence],
};
