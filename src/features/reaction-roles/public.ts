// What other features may use of reaction roles.
export { matches, recordReactionRoleEvent } from './service';
