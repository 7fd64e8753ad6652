// The signed-out landing page (spec section 2 "Login"): product intro, three feature
// cards, 'Continue with Discord' (full-page OAuth redirect) and 'Demo Login' (/test-auth).
import { useSignals } from '@preact/signals-react/runtime';
import { Bot, FlaskConical, LogIn } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { safeRedirectPath } from '../../src/shared/redirect';
import { botName, discordLoginUrl, loadBotName } from '../api/session';
import { Button, buttonClass } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { useDocumentTitle } from '../components/use-document-title';
import { FEATURE_AREAS } from '../marketing';

/** Where to come back to after signing in: the page the visitor asked for, or '/'. */
function returnPath(pathname: string, search: string): string {
  if (pathname === '/login' || pathname === '/') return '/';
  return safeRedirectPath(pathname + search);
}

/** The login screen. */
export default function Login() {
  useSignals();
  const { pathname, search } = useLocation();
  useEffect(loadBotName, []);
  useDocumentTitle('Sign in');

  return (
    <div className="login-page">
      <div className="login-glow" aria-hidden="true" />
      <main className="login-main">
        <section className="login-hero" aria-labelledby="login-title">
          <span className="login-logo">
            <Bot size={40} aria-hidden="true" />
          </span>
          <h1 id="login-title" className="login-title">
            {botName.value} Dashboard
          </h1>
          <p className="login-lead">
            Configure your community bot for every server you manage: greet new members, run an economy with a shop and XP levels, and keep your community safe
            with moderation tools.
          </p>
          <div className="login-actions">
            <Button size="lg" className="btn-discord" onClick={() => window.location.assign(discordLoginUrl(returnPath(pathname, search)))}>
              <LogIn size={18} aria-hidden="true" /> Continue with Discord
            </Button>
            <Link to="/test-auth" className={buttonClass('outline', 'lg')}>
              <FlaskConical size={18} aria-hidden="true" /> Demo Login
            </Link>
          </div>
          <p className="login-note">
            You sign in with your Discord account (scopes <code>identify</code> and <code>guilds</code>). We only list the servers you manage.
          </p>
        </section>

        <section className="grid grid-3 login-features" aria-label="Features">
          {FEATURE_AREAS.map(({ title, description, icon: Icon }) => (
            <Card key={title} className="feature-card">
              <span className="feature-icon">
                <Icon size={22} aria-hidden="true" />
              </span>
              <h2 className="feature-title">{title}</h2>
              <p className="feature-text">{description}</p>
            </Card>
          ))}
        </section>
      </main>
    </div>
  );
}
