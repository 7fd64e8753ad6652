// The guarded history under the router (web/guarded-history.ts), over react-router's memory
// history: pushes and back/forward moves go through unless the guard holds them; a held move asks,
// and goes only on a yes; a held back/forward is undone at once, without telling the router.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { UNSAFE_createMemoryHistory as createMemoryHistory } from 'react-router-dom';
import { createGuardedHistory, type BrowserHistory } from '../../web/guarded-history';

/** A guarded history at /a then /b, holding every move while `dirty`, answering with `answers` in turn. */
function setup(answers: boolean[]) {
  const base = createMemoryHistory({ initialEntries: ['/a', '/b'], initialIndex: 1, v5Compat: true });
  const state = { dirty: true, asked: 0 };
  const history = createGuardedHistory(
    {
      holds: (from, to) => state.dirty && from.pathname !== to.pathname,
      ask: () => {
        state.asked += 1;
        return Promise.resolve(answers.shift() ?? false);
      },
    },
    base as unknown as BrowserHistory,
  );
  const seen: string[] = [];
  history.listen(({ action, location }) => seen.push(`${action} ${location.pathname}`));
  return { base, history, state, seen };
}

/** Lets the answers' promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the guarded history', () => {
  test('a held push asks: no keeps the page, yes goes', async () => {
    const { history, state, seen } = setup([false, true]);
    history.push('/c');
    await settle();
    assert.equal(history.location.pathname, '/b');
    assert.deepEqual(seen, []);
    history.push('/c');
    await settle();
    assert.equal(history.location.pathname, '/c');
    assert.deepEqual(seen, ['PUSH /c']);
    assert.equal(state.asked, 2);
  });

  test('nothing held: moves go at once, unasked; a hash change alone is never held', async () => {
    const { history, state, seen } = setup([]);
    history.push('/b#part');
    state.dirty = false;
    history.push('/c');
    history.go(-1);
    assert.deepEqual(seen, ['PUSH /b', 'PUSH /c', 'POP /b']);
    assert.equal(state.asked, 0);
  });

  test('a held back is undone at once and the router hears nothing; yes goes back after all', async () => {
    const { base, history, state, seen } = setup([false, true]);
    history.go(-1);
    assert.equal(base.location.pathname, '/b', 'the move is undone before the answer');
    await settle();
    assert.deepEqual(seen, []);
    history.go(-1);
    await settle();
    assert.equal(base.location.pathname, '/a');
    assert.deepEqual(seen, ['POP /a']);
    assert.equal(state.asked, 2);
  });
});
