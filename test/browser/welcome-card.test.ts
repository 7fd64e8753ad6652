// The Welcome card's live preview in a real browser: the image is drawn by the server with the
// admin's avatar and name, and editing the card's title draws it anew (a new image, debounced).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserSuite } from './helpers';

const harness = browserSuite();

describe('Welcome card preview', () => {
  test('editing the card title changes the preview image', async () => {
    const guildId = harness().product.sandbox?.world.demo.guildId ?? '';
    const page = await harness().openSignedIn(`/server/${guildId}/welcome`);
    await page.getByRole('heading', { name: 'Welcome card' }).waitFor();
    const image = page.getByTestId('welcome-card-preview');
    await page.waitForSelector('[data-testid="welcome-card-preview"][data-state="ready"]');
    const before = await image.getAttribute('src');
    const first = await image.screenshot();
    assert.ok(before?.includes('/welcome/card/preview?'));
    assert.ok(await image.evaluate((element: HTMLImageElement) => element.naturalWidth === 1000 && element.naturalHeight === 360), 'the card is drawn');

    await page.getByLabel('Card title').fill('Hello {username}, make yourself at home');
    await page.waitForFunction(
      (old) => {
        const element = document.querySelector<HTMLImageElement>('[data-testid="welcome-card-preview"]');
        return element !== null && element.getAttribute('src') !== old && element.dataset.state === 'ready';
      },
      before,
      { timeout: 10_000 },
    );
    assert.match((await image.getAttribute('src')) ?? '', /title=Hello/);
    assert.notDeepEqual(await image.screenshot(), first, 'the image changed');

    await page.getByLabel('Card title').fill('Hi {usr}');
    await page.getByText('{usr} is not a placeholder').first().waitFor();
  });
});
