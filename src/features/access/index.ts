import type { Feature } from '../../core/feature';
import { accessRoutes } from './routes';

/** Delegated dashboard access: the owner or an Administrator grants a role or member view or edit access. */
export const accessFeature: Feature = {
  name: 'access',
  routes: accessRoutes,
};
