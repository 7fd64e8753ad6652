// Presentation state: the mobile navigation drawer and the colour theme.
import { signal } from '@preact/signals-react';

/** True while the off-canvas sidebar (under 768 px) is open. */
export const drawerOpen = signal(false);

/** A colour theme. */
export type Theme = 'dark' | 'light';

const THEME_KEY = 'dashboard.theme';

/** The user's explicit choice, or null to follow prefers-color-scheme. */
function storedTheme(): Theme | null {
  try {
    const value = window.localStorage.getItem(THEME_KEY);
    return value === 'dark' || value === 'light' ? value : null;
  } catch {
    return null;
  }
}

const lightQuery = window.matchMedia('(prefers-color-scheme: light)');

/** The theme in effect. */
export const theme = signal<Theme>(storedTheme() ?? (lightQuery.matches ? 'light' : 'dark'));

/** Writes the theme onto <html> so the CSS variables switch. */
function applyTheme(value: Theme): void {
  document.documentElement.dataset.theme = value;
}

/** Applies the theme now and keeps following the system setting until the user picks one. */
export function initTheme(): void {
  applyTheme(theme.peek());
  lightQuery.addEventListener('change', (event) => {
    if (storedTheme()) return;
    const next: Theme = event.matches ? 'light' : 'dark';
    applyTheme(next);
    theme.value = next;
  });
}

/** Switches between dark and light and remembers the choice. */
export function toggleTheme(): void {
  const next: Theme = theme.peek() === 'dark' ? 'light' : 'dark';
  // The attribute changes first so components re-rendering for the signal read the new CSS variables.
  applyTheme(next);
  theme.value = next;
  try {
    window.localStorage.setItem(THEME_KEY, next);
  } catch {
    // The choice lasts for this visit only.
  }
}
