import type { Feature } from '../../core/feature';
import { economyCommands } from './commands';
import { economyRoutes } from './routes';

/** The economy: wallets and the ledger, the shop and inventories, Give Coins, Reset and Export, and the member commands. */
export const economyFeature: Feature = {
  name: 'economy',
  commands: economyCommands,
  routes: economyRoutes,
};
