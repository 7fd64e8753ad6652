// The demo server with its month of history (DEMO_HISTORY on, as `npm start` runs), on a phone:
// the dashboard's activity chart draws a month of messages, and the moderation log and View
// Reports list the month's cases and open reports, all within 375 px.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSuite, VIEWPORTS } from './helpers';

const harness = browserSuite({ DEMO_HISTORY: 'on' });
const guildId = () => harness().product.sandbox?.world.demo.guildId ?? '';

/** Whether the page is wider than the phone (something pushes it sideways). */
const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

test('on a phone, the dashboard charts a month of activity and the moderation page lists its cases and open reports', async () => {
  const page = await harness().openSignedIn(`/server/${guildId()}/dashboard`, { viewport: VIEWPORTS.mobile });
  const chart = page.getByRole('img', { name: /Messages and joins per day over the last 30 days/ });
  await chart.locator('.recharts-area-area').first().waitFor();
  // The Y axis is scaled to the data: its top tick is above 0 only when some day has messages.
  const labels = chart.locator('svg text');
  await labels.first().waitFor();
  const ticks = (await labels.allTextContents()).map(Number).filter((value) => Number.isFinite(value));
  assert.ok(Math.max(...ticks) >= 10, `Y axis ticks ${ticks.join(', ')}`);
  assert.equal(await overflows(page), false, 'the dashboard fits 375 px');

  await page.close();

  const moderation = await harness().openSignedIn(`/server/${guildId()}/moderation`, { viewport: VIEWPORTS.mobile });
  await moderation.getByRole('heading', { name: 'Moderation', level: 1 }).waitFor();
  await moderation.getByText('Scam links (free Nitro)').first().waitFor();
  assert.equal(await overflows(moderation), false, 'the moderation page fits 375 px');
  await moderation.getByRole('button', { name: /View Reports/ }).click();
  const dialog = moderation.getByRole('dialog');
  await dialog.getByText('Rude to new members').waitFor();
  await dialog.getByText('Posting invite links').waitFor();
  await moderation.close();
});
