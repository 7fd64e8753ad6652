// Where toasts show. The UI library's toast code (./ui/toast) loads with the page's first toast
// rather than with every page: the login page shows none unless a sign-in failed, and stays small
// without it. A signed-in user, whose every saved change ends in a toast, gets it once the page
// has loaded (web/state/after-load.ts), or with an earlier toast.
import { useSignals } from '@preact/signals-react/runtime';
import { lazy, Suspense, useEffect, useState } from 'react';
import { afterLoad } from '../state/after-load';
import { sessionUser } from '../state/session';
import { toasts } from '../state/toasts';

const loadToaster = () => import('./ui/toast').then(({ Toaster }) => ({ default: Toaster }));
const Toaster = lazy(loadToaster);

/** The toast region: mount once near the root; it renders the toasts once there has been one. */
export function ToastRegion() {
  useSignals();
  const signedIn = sessionUser.value !== null;
  useEffect(() => {
    if (!signedIn) return undefined;
    return afterLoad(() => void loadToaster());
  }, [signedIn]);
  const hasToast = toasts.value.length > 0;
  // Once mounted, the region stays (toasts animate out, and the next one shows at once).
  const [mounted, setMounted] = useState(hasToast);
  if (hasToast && !mounted) setMounted(true);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
