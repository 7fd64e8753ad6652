import type { Feature } from '../../core/feature';
import { serverRoutes } from './routes';

/** The totals over the account's servers, each server's dashboard, and its channels and roles. */
export const serversFeature: Feature = {
  name: 'servers',
  routes: serverRoutes,
};
