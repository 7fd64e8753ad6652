// The dashboard's feature pages, by slug: each is its own chunk, loaded when its route opens.
// Adding a feature's page is one line here (its metadata lives in navigation.ts).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export const FEATURE_PAGES: Partial<Record<string, LazyExoticComponent<ComponentType>>> = {
  settings: lazy(() => import('./settings/Page')),
  welcome: lazy(() => import('./welcome/Page')),
  rules: lazy(() => import('./rules/Page')),
  roles: lazy(() => import('./roles/Page')),
  announcements: lazy(() => import('./announcements/Page')),
  leveling: lazy(() => import('./leveling/Page')),
  economy: lazy(() => import('./economy/Page')),
  transactions: lazy(() => import('./transactions/Page')),
  inventory: lazy(() => import('./inventory/Page')),
  moderation: lazy(() => import('./moderation/Page')),
};
