import { escapeHtml as escape } from './html';

/** One user card on the consent page. */
export interface ConsentUser {
  id: string;
  label: string;
  note: string;
  /** Guilds this user can add the bot to (scope=bot). */
  guilds: Array<{ id: string; name: string }>;
}

/** What the consent page shows. */
export interface ConsentPage {
  appName: string;
  scopes: string[];
  bot: boolean;
  /** The original query, echoed in hidden fields. */
  hidden: Record<string, string>;
  preselectGuildId: string | null;
  users: ConsentUser[];
}

const STYLE = `body{font-family:system-ui,sans-serif;background:#313338;color:#dbdee1;margin:0;padding:32px}
main{max-width:560px;margin:auto;background:#2b2d31;border-radius:8px;padding:24px}h1{font-size:20px;color:#fff}
.user{display:flex;gap:12px;align-items:center;justify-content:space-between;border-top:1px solid #3f4147;padding:12px 0}
.note{font-size:12px;color:#949ba4}button{background:#5865f2;color:#fff;border:0;border-radius:4px;padding:8px 14px;cursor:pointer}
button.cancel{background:#4e5058}select{margin-right:8px}.badge{background:#248046;color:#fff;border-radius:3px;padding:1px 6px;font-size:11px}`;

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta ` +
    `charset="utf-8"><title>${escape(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`
  );
}

function hiddenFields(hidden: Record<string, string>): string {
  return Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('');
}

/**
 * The sandbox's consent page: one POST form per user (no JavaScript), plus Cancel. The forms post
 * to `authorize`, relative to the page's own /oauth2/authorize, so they work on the sandbox's port
 * and under its mount on the dashboard's.
 */
export function renderConsentPage(view: ConsentPage): string {
  const cards = view.users
    .map((user, index) => {
      const select = view.bot
        ? user.guilds.length > 0
          ? `<select name="guild_id" aria-label="Server for ${escape(user.label)}">${user.guilds
              .map((g) => `<option value="${escape(g.id)}"${g.id === view.preselectGuildId ? ' selected' : ''}>${escape(g.name)}</option>`)
              .join('')}</select>`
          : `<span class="note">No server this user can manage.</span>`
        : '';
      const disabled = view.bot && user.guilds.length === 0 ? ' disabled' : '';
      return `<form method="post" action="authorize" class="user">${hiddenFields(view.hidden)}
<input type="hidden" name="user_id" value="${escape(user.id)}">
<div><strong>${escape(user.label)}</strong>${index === 0 ? ' <span class="badge">demo admin</span>' : ''}<div class="note">${escape(user.note)}</div></div>
<div>${select}<button type="submit" name="action" value="authorize"${disabled}>
${view.bot ? 'Add bot as' : 'Sign in as'} ${escape(user.label)}</button></div></form>`;
    })
    .join('\n');
  return page(
    `Authorize ${view.appName}`,
    `<h1>${escape(view.appName)} wants to access your account</h1>
<p class="note">Sandbox Discord (offline). Scopes: ${escape(view.scopes.join(', '))}. Choose who you are:</p>
${cards}
<form method="post" action="authorize">${hiddenFields(view.hidden)}<button type="submit" class="cancel" name="action" value="cancel">Cancel</button></form>`,
  );
}

/** A small page with a heading and a message (errors, 'Bot added'). */
export function renderMessagePage(title: string, message: string): string {
  return page(title, `<h1>${escape(title)}</h1><p>${escape(message)}</p>`);
}
