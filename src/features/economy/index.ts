import type { Feature } from '../../core/feature';
import type { Services } from '../../core/services';
import type { Diagnostic } from '../../shared/diagnostics';
import type { GuildSettings } from '../../shared/settings';
import { handoutProblem } from '../../core/checks';
import { listShop } from './service';
import { economyCommands } from './commands';
import { economyRoutes } from './routes';

/** Role items for sale whose role the bot cannot give (buying them would fail), or that sell staff permissions. */
async function diagnoseEconomy(services: Services, guildId: string, settings: GuildSettings): Promise<Diagnostic[]> {
  if (!settings.economyEnabled) return [];
  const items: Diagnostic[] = [];
  for (const item of await listShop(services, guildId, { activeOnly: true })) {
    if (item.type !== 'role' || !item.roleId) continue;
    const role = handoutProblem(services, guildId, item.roleId);
    if (role)
      items.push({
        feature: 'economy',
        severity: role.severity,
        problem: `Shop item ${item.name} (@${item.roleName ?? item.roleId}): ${role.problem}`,
        fix: role.fix,
        subject: `shopItem:${item.id}`,
      });
  }
  return items;
}

/** The economy: wallets and the ledger, the shop and inventories, Give Coins, Reset and Export, and the member commands. */
export const economyFeature: Feature = {
  name: 'economy',
  diagnose: diagnoseEconomy,
  commands: economyCommands,
  routes: economyRoutes,
};
