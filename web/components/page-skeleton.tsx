import { Skeleton } from './ui/skeleton';

/** The Suspense fallback while a page's code loads: a title and a few card blocks. */
export function PageSkeleton() {
  return (
    <div className="page-skeleton" role="status" aria-busy="true" aria-label="Loading page">
      <Skeleton width="14rem" height="2rem" />
      <Skeleton width="22rem" height="1rem" />
      <div className="grid grid-cards">
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} height="8rem" />
        ))}
      </div>
    </div>
  );
}
