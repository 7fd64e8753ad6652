// The signed-in user as a signal, mirrored from the /api/auth/me query by the auth gate,
// so the header, menus and pages read it without prop drilling.
import { signal } from '@preact/signals-react';
import type { CurrentUser } from '../../src/shared/auth';

/** The signed-in user, or null when signed out or not yet known. */
export const sessionUser = signal<CurrentUser | null>(null);

/** Up to two letters for an avatar fallback: the username's first two, uppercased, else 'U'. */
export function userInitials(username: string | undefined): string {
  const initials = (username ?? '').slice(0, 2).toUpperCase();
  return initials || 'U';
}

/** The #tag shown after a username: the discriminator, or 0000 when absent (Discord sends "0" for new-style names). */
export function displayDiscriminator(discriminator: string | undefined): string {
  return !discriminator || discriminator === '0' ? '0000' : discriminator;
}
