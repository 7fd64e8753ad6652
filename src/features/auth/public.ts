// What other features may use of sign-in (test/architecture.test.ts keeps them to this file).
import type { Services } from '../../core/services';
import type { Account } from '../../db/models/account';
import type { Server } from '../../shared/auth';
import { listManagedServers } from './service';
import { authState } from './state';

/** The servers the account may manage, with whether the bot is in each (for the server picker). */
export function managedServers(services: Services, account: Account): Promise<Server[]> {
  return listManagedServers(authState.of(services), services, account);
}
