// The dashboard's feature pages, by slug: each is its own chunk, loaded when its route opens.
// Adding a feature's page is one line here (its metadata lives in navigation.ts).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** Each feature page's loader: the lazy page below and the sidebar's prefetching (web/route-prefetch.ts) share it. */
export const FEATURE_PAGE_LOADERS: Partial<Record<string, () => Promise<{ default: ComponentType }>>> = {
  settings: () => import('./settings/page'),
  welcome: () => import('./welcome/page'),
  rules: () => import('./rules/page'),
  roles: () => import('./roles/page'),
  announcements: () => import('./announcements/page'),
  leveling: () => import('./leveling/page'),
  economy: () => import('./economy/page'),
  transactions: () => import('./transactions/page'),
  inventory: () => import('./inventory/page'),
  moderation: () => import('./moderation/page'),
  music: () => import('./music/page'),
};

export const FEATURE_PAGES: Partial<Record<string, LazyExoticComponent<ComponentType>>> = Object.fromEntries(
  Object.entries(FEATURE_PAGE_LOADERS).flatMap(([slug, load]) => (load ? [[slug, lazy(load)]] : [])),
);
