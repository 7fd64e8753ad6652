// What other features may use of verification.
export { giveJoinRole } from './service';
