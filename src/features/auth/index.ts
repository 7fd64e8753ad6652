import type { Feature } from '../../core/feature';
import { authRoutes } from './routes';
import { authState } from './state';

/** Sign-in with Discord (and the sandbox's demo login), sessions, and the account's server list. */
export const authFeature: Feature = {
  name: 'auth',
  state: authState,
  routes: authRoutes,
};
