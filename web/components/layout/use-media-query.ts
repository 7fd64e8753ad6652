import { useSyncExternalStore } from 'react';

/** True while the CSS media query matches; re-renders when it flips. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
  );
}

/** The spec's mobile breakpoint: under 768 px the sidebar becomes a drawer. */
export const MOBILE_QUERY = '(max-width: 767.98px)';
