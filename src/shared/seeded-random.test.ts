// The seeded generator is mulberry32 exactly: the sandbox's world, the demo history and the fuzz
// cases are promised to be the same for a seed, so its stream must not drift.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from './seeded-random';

test("mulberry32's stream for seed 42 stays as it was, the same for the same seed and another for another", () => {
  const draw = (seed: number) => {
    const random = mulberry32(seed);
    return [random(), random(), random()];
  };
  assert.deepEqual(draw(42), [0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
  assert.deepEqual(draw(42), draw(42));
  assert.notDeepEqual(draw(43), draw(42));
  for (const value of draw(7)) assert.ok(value >= 0 && value < 1);
});
