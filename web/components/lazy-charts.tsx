// The charts, loaded apart from the pages that show them: recharts and d3 are some 120 KB gzip,
// more than the rest of a page, and a chart is not what a page is opened for. The page shows
// first; until the chart's code arrives its box keeps the chart's size, so nothing moves.
import { lazy, Suspense, type ComponentProps, type ComponentType, type JSX } from 'react';

/** `load`'s component, rendered inside its own Suspense with an empty box of the chart's size. */
function deferred<P extends object>(load: () => Promise<ComponentType<P>>) {
  const Chart = lazy(() => load().then((component) => ({ default: component })));
  return function DeferredChart(props: P) {
    return (
      <Suspense fallback={<div className="chart" />}>
        <Chart {...(props as P & JSX.IntrinsicAttributes)} />
      </Suspense>
    );
  };
}

export const ActivityChart = deferred<ComponentProps<typeof import('./activity-chart').ActivityChart>>(() =>
  import('./activity-chart').then((module) => module.ActivityChart),
);
export const XpChart = deferred<ComponentProps<typeof import('../features/leveling/xp-chart').XpChart>>(() =>
  import('../features/leveling/xp-chart').then((module) => module.XpChart),
);
export const UsageChart = deferred<ComponentProps<typeof import('../features/roles/usage-chart').UsageChart>>(() =>
  import('../features/roles/usage-chart').then((module) => module.UsageChart),
);
