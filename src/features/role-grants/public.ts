// What other features may use of role grants: giving a role, retried when Discord cannot take it now.
export { changeRole, refusalOf, type RoleChange } from './grants';
