// The frame of the appeal pages: a banned member is no admin of any server here, so they get a
// page of their own (no sidebar, no server picker), centred like the sign-in page.
import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../components/use-document-title';

/** The appeal pages' frame. */
export function AppealLayout({ children }: { children: ReactNode }) {
  useDocumentTitle('Ban appeal');
  return (
    <div className="login-page">
      <div className="login-glow" aria-hidden="true" />
      <main className="appeal-main">{children}</main>
    </div>
  );
}
