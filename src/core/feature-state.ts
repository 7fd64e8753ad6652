/**
 * Where each feature's state lives for one running product (Services.states): put once at start,
 * read by the feature's slot (core/feature.ts, FeatureState.of).
 */
export class FeatureStates {
  private readonly states = new Map<object, unknown>();

  /** Keeps what a feature made at start under its slot. */
  put(slot: object, state: unknown): void {
    if (this.states.has(slot)) throw new Error('a feature state is made once per product');
    this.states.set(slot, state);
  }

  /** What the feature made; throws when it made nothing in this product (it is not in its feature list). */
  get(slot: object, name: string): unknown {
    if (!this.states.has(slot)) throw new Error(`the ${name} feature's state was not made: the feature is not in this product's feature list`);
    return this.states.get(slot);
  }
}
