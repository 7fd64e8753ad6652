// /test-auth (spec sections 2, 4, 8): shows the session's loading, error and user states,
// and a mock login (sandbox mode) that alerts, then redirects to /dashboard#login-success.
import { FlaskConical, LogOut, Server, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { CurrentUser } from '../../src/shared/auth';
import { logout } from '../api/auth';
import { errorMessage } from '../api/client';
import { useCurrentUser } from '../api/queries';
import { UserAvatar } from '../components/user-avatar';
import { displayDiscriminator } from '../state/session';
import { Button, buttonClass } from '../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../components/ui/card';
import { useDocumentTitle } from '../components/use-document-title';
import { Spinner } from '../components/ui/spinner';
import { MockLoginForm } from './mock-login-form';

/** The signed-in state: who, where to go next, and Logout. */
function SignedIn({ user }: { user: CurrentUser }) {
  const navigate = useNavigate();
  return (
    <CardContent className="stack">
      <div className="identity" data-testid="test-auth-user">
        <UserAvatar user={user} />
        <div>
          <p className="identity-name">
            {user.username}
            <span className="muted">#{displayDiscriminator(user.discriminator)}</span>
          </p>
          <p className="muted small">Discord ID {user.discordId}</p>
        </div>
      </div>
      <p className="success-text">You are signed in.</p>
      <div className="row">
        <Link to="/servers" className={buttonClass('primary')}>
          <Server size={16} aria-hidden="true" /> Go to My Servers
        </Link>
        <Button
          variant="outline"
          onClick={() => {
            void logout().then((ok) => {
              if (ok) navigate('/login', { replace: true });
            });
          }}
        >
          <LogOut size={16} aria-hidden="true" /> Logout
        </Button>
      </div>
    </CardContent>
  );
}

/** The authentication test page. */
export default function TestAuth() {
  const me = useCurrentUser();
  const [disabledReason, setDisabledReason] = useState<string | null>(null);

  useDocumentTitle('Authentication Test');

  return (
    <main className="center-page">
      <Card className="narrow-card">
        <CardHeader>
          <span className="feature-icon">
            <FlaskConical size={22} aria-hidden="true" />
          </span>
          <h1 className="card-title page-title">Authentication Test</h1>
          <CardDescription>Check your session, or sign in with a demo account (sandbox mode).</CardDescription>
        </CardHeader>
        {me.isPending ? (
          <CardContent className="row" role="status">
            <Spinner /> Checking your session…
          </CardContent>
        ) : me.isError ? (
          <CardContent role="alert" className="error-text">
            Could not check your session: {errorMessage(me.error)}
          </CardContent>
        ) : me.data ? (
          <SignedIn user={me.data} />
        ) : (
          <CardContent className="stack">
            <p className="muted">You are not signed in.</p>
            {disabledReason ? (
              <p className="notice notice-warning" role="alert">
                <TriangleAlert size={16} aria-hidden="true" /> {disabledReason}
              </p>
            ) : null}
            <MockLoginForm onDisabled={setDisabledReason} />
          </CardContent>
        )}
        {me.data ? null : (
          <CardContent className="row muted small">
            <Link to="/login">Back to login</Link>
          </CardContent>
        )}
      </Card>
    </main>
  );
}
