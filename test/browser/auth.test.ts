// Sign-in through 'Continue with Discord' (the sandbox's consent page) and the callback's errors.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSuite } from './helpers';

const harness = browserSuite();

/** Waits for the toast with `title` and returns its text. */
async function toastText(page: Page, title: string): Promise<string> {
  const toast = page.getByTestId('toast').filter({ hasText: title });
  await toast.waitFor();
  return (await toast.textContent()) ?? '';
}

describe('/auth/callback', () => {
  test('Continue with Discord signs in through the consent page and welcomes the user', async () => {
    const page = await harness().open('/login');
    await page.getByRole('button', { name: 'Continue with Discord' }).click();
    await page.getByRole('button', { name: /Sign in as Demo Admin/ }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 15_000 });
    const text = await toastText(page, 'Welcome to AwesomeBot!');
    assert.match(text, /Successfully logged in as demo_admin/);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });

  test('an error from the provider goes back to /login with "Authentication Failed"', async () => {
    const page = await harness().open('/auth/callback?error=access_denied');
    assert.match(await toastText(page, 'Authentication Failed'), /Failed to authenticate with Discord\. Please try again\./);
    await page.waitForURL((url) => url.pathname === '/login');
  });

  test('a callback without a code goes back to /login with "Invalid Request"', async () => {
    const page = await harness().open('/auth/callback');
    assert.match(await toastText(page, 'Invalid Request'), /No authorization code received from Discord\./);
    await page.waitForURL((url) => url.pathname === '/login');
  });

  test('a code the server refuses goes back to /login with "Authentication Error"', async () => {
    const page = await harness().open('/auth/callback?code=not-a-real-code&state=forged');
    assert.match(await toastText(page, 'Authentication Error'), /Failed to complete Discord authentication\. Please try again\./);
    await page.waitForURL((url) => url.pathname === '/login');
  });
});
