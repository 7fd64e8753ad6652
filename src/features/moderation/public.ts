// What other features may use of moderation.
export { recordCase } from './cases';
export { createReport, dismissReport } from './reports';
