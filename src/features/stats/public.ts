// What other features may use of the stats.
export { serverOverview, serverStats } from './service';
