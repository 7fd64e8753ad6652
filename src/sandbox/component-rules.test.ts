import assert from 'node:assert/strict';
import { test } from 'node:test';
import { customIds } from './component-rules';

test('custom_ids are found in action rows and in layout components, each with its path in the body', () => {
  const button = (custom_id: string) => ({ type: 2, style: 1, label: custom_id, custom_id });
  const found = customIds([
    { type: 1, components: [button('a'), { type: 2, style: 5, label: 'Docs', url: 'https://example.com' }] },
    {
      type: 17,
      components: [
        { type: 9, components: [{ type: 10, content: 'text' }], accessory: button('b') },
        { type: 1, components: [button('c')] },
      ],
    },
    { type: 18, label: 'Pick', component: { type: 3, custom_id: 'd', options: [] } },
  ]);
  assert.deepEqual(found, [
    { customId: 'a', path: [0, 'components', 0, 'custom_id'] },
    { customId: 'b', path: [1, 'components', 0, 'accessory', 'custom_id'] },
    { customId: 'c', path: [1, 'components', 1, 'components', 0, 'custom_id'] },
    { customId: 'd', path: [2, 'component', 'custom_id'] },
  ]);
});
