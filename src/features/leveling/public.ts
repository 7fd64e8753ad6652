// What other features may use of leveling (test/architecture.test.ts keeps them to this file).
export { profile } from './service';
export { rewardRolesKept } from './rewards';
export { Accruals } from './accruals';
