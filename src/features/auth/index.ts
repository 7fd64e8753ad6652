import type { Feature } from '../../core/feature';
import { authRoutes } from './routes';

/** Sign-in with Discord (and the sandbox's demo login), sessions, and the account's server list. */
export const authFeature: Feature = {
  name: 'auth',
  routes: authRoutes,
};
