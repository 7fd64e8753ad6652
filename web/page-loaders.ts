// The signed-in pages outside the feature pages, as the functions that load their chunks: the
// router's lazy pages (web/signed-in-routes.tsx) and the sidebar's prefetching
// (web/route-prefetch.ts) share them.
export const GLOBAL_PAGE_LOADERS = {
  dashboard: () => import('./pages/dashboard'),
  servers: () => import('./pages/servers'),
  serverManagement: () => import('./pages/server-management'),
  addBot: () => import('./pages/add-bot'),
  serverDashboard: () => import('./pages/server-dashboard'),
};
