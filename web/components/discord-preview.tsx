// A message as Discord would show it: the bot's name, the text with mentions drawn as pills, and
// embeds with their colour bar. The welcome and announcement pages preview their drafts with it.
import { Fragment, type ReactNode } from 'react';

/** An embed as the preview draws it. */
export interface PreviewEmbed {
  title?: string;
  description?: string;
  color?: number;
  author?: { name: string };
  footer?: { text: string };
}

/** Props of DiscordPreview. */
export interface DiscordPreviewProps {
  botName: string;
  content?: string;
  embeds?: PreviewEmbed[];
  /** Names for `<@id>` and `<@&id>` mentions. */
  users?: Record<string, string>;
  roles?: Record<string, string>;
  /** Where it is posted: "#welcome". */
  channelLabel?: string;
}

const MENTION = /<@!?(\d+)>|<@&(\d+)>/g;

/** Text with `<@id>` and `<@&id>` drawn as mention pills; everything else as typed. */
function withMentions(text: string, users: Record<string, string>, roles: Record<string, string>): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(MENTION)) {
    const index = match.index ?? 0;
    if (index > last) parts.push(text.slice(last, index));
    const [, userId, roleId] = match;
    parts.push(
      <span key={index} className="mention">
        @{userId ? (users[userId] ?? 'unknown-user') : (roles[roleId ?? ''] ?? 'unknown-role')}
      </span>,
    );
    last = index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** Draws one message of the bot. */
export function DiscordPreview({ botName, content, embeds = [], users = {}, roles = {}, channelLabel }: DiscordPreviewProps) {
  return (
    <figure className="discord-preview" aria-label="Preview">
      {channelLabel ? <figcaption className="dp-channel">{channelLabel}</figcaption> : null}
      <div className="dp-message">
        <span className="dp-avatar" aria-hidden="true">
          {botName.slice(0, 1).toUpperCase()}
        </span>
        <div className="dp-body">
          <div className="dp-author">
            <span className="strong">{botName}</span>
            <span className="dp-bot-tag">APP</span>
            <span className="muted small">Today</span>
          </div>
          {content ? <div className="dp-content">{withMentions(content, users, roles)}</div> : null}
          {embeds.map((embed, index) => (
            <div
              key={index}
              className="dp-embed"
              style={{ borderLeftColor: embed.color === undefined ? undefined : `#${embed.color.toString(16).padStart(6, '0')}` }}
            >
              {embed.author ? <div className="dp-embed-author">{embed.author.name}</div> : null}
              {embed.title ? <div className="dp-embed-title">{embed.title}</div> : null}
              {embed.description ? (
                <div className="dp-embed-description">
                  {embed.description.split('\n').map((line, i) => (
                    <Fragment key={i}>
                      {i > 0 ? <br /> : null}
                      {withMentions(line, users, roles)}
                    </Fragment>
                  ))}
                </div>
              ) : null}
              {embed.footer ? <div className="dp-embed-footer">{embed.footer.text}</div> : null}
            </div>
          ))}
        </div>
      </div>
    </figure>
  );
}
