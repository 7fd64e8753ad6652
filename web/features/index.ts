// The dashboard's feature pages, by slug: each is its own chunk, loaded when its route opens.
// Adding a feature's page is one line here (its metadata lives in navigation.ts).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export const FEATURE_PAGES: Partial<Record<string, LazyExoticComponent<ComponentType>>> = {
  settings: lazy(() => import('./settings/page')),
  welcome: lazy(() => import('./welcome/page')),
  rules: lazy(() => import('./rules/page')),
  roles: lazy(() => import('./roles/page')),
  announcements: lazy(() => import('./announcements/page')),
  leveling: lazy(() => import('./leveling/page')),
  economy: lazy(() => import('./economy/page')),
  transactions: lazy(() => import('./transactions/page')),
  inventory: lazy(() => import('./inventory/page')),
  moderation: lazy(() => import('./moderation/page')),
  music: lazy(() => import('./music/page')),
};
