import { featureState } from '../../core/feature';

/** What the live feature keeps for one product: how to stop hearing the store. */
export interface LiveState {
  stopHearing: (() => void) | null;
}

export const liveState = featureState<LiveState>('live', () => ({ stopHearing: null }));
