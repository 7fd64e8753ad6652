// /appeal/:guildId/:userId signed out: the banned member signs in with Discord, and the sign-in
// brings them back to this page (the login's redirect is this same-origin path, kept safe by
// safeRedirectPath on both sides).
import { Gavel, LogIn } from 'lucide-react';
import { useLocation } from 'react-router-dom';
import { safeRedirectPath } from '../../../src/shared/redirect';
import { discordLoginUrl } from '../../api/session';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { AppealLayout } from './appeal-layout';

/** The appeal page for a visitor: sign in first. */
export default function AppealSignIn() {
  const { pathname } = useLocation();
  return (
    <AppealLayout>
      <Card>
        <EmptyState
          icon={Gavel}
          heading="h1"
          title="Appeal your ban"
          description="Sign in with the Discord account that was banned. You come back to this page to write your appeal."
          actions={
            <Button size="lg" className="btn-discord" onClick={() => window.location.assign(discordLoginUrl(safeRedirectPath(pathname)))}>
              <LogIn size={18} aria-hidden="true" /> Continue with Discord
            </Button>
          }
        />
      </Card>
    </AppealLayout>
  );
}
