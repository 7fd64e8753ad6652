import { featureState } from '../../core/feature';

/** Verification's state: when each young account was last flagged to moderators (once a day each, however often they try). */
export const verificationState = featureState('verification', () => ({ flagged: new Map<string, number>() }));
