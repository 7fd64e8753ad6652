// The Welcome page's Goodbye card and Welcome card (issue 25, point 5): the goodbye's switch,
// channel and message; the card's switch, title and colours, with a live preview drawn by the
// server (the admin's own avatar and name, the draft's values, refreshed as they stop typing).
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import type { GuildDirectory } from '../../../src/shared/servers';
import { CARD_HEIGHT, CARD_PLACEHOLDERS, CARD_TITLE_MAX, CARD_WIDTH, unknownPlaceholderProblem } from '../../../src/shared/welcome-card';
import { guildApi } from '../../api/guild';
import { ChannelPicker, Field, SwitchRow } from '../../components/form';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Skeleton } from '../../components/ui/skeleton';

/** The fields of these two cards. */
export interface CardDraft {
  goodbyeEnabled: boolean;
  goodbyeChannelId: string | null;
  goodbyeMessage: string;
  welcomeCardEnabled: boolean;
  welcomeCardTitle: string;
  welcomeCardBackground: string;
  welcomeCardAccent: string;
}

/** How long the preview waits after the last keystroke. */
const PREVIEW_DEBOUNCE_MS = 400;

/** `value`, once it has stopped changing for `delay` ms. */
function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** The card's preview URL for a draft, or null while the title has a problem. */
function previewUrl(guildId: string, draft: CardDraft): string | null {
  if (unknownPlaceholderProblem(draft.welcomeCardTitle, CARD_PLACEHOLDERS) || !draft.welcomeCardTitle.trim()) return null;
  const query = new URLSearchParams({ title: draft.welcomeCardTitle, background: draft.welcomeCardBackground, accent: draft.welcomeCardAccent });
  return `${guildApi(guildId)}/welcome/card/preview?${query.toString()}`;
}

/** The preview image: a skeleton while it loads, a sentence when it could not be drawn. */
function CardPreview({ guildId, draft }: { guildId: string; draft: CardDraft }) {
  const url = useDebounced(previewUrl(guildId, draft), PREVIEW_DEBOUNCE_MS);
  // What the image of which URL did: a new URL is loading until its own image answers.
  const [settled, setSettled] = useState<{ url: string; state: 'ready' | 'failed' } | null>(null);
  const state = settled && settled.url === url ? settled.state : 'loading';
  if (!url) return <p className="muted small">Fix the title to see the card.</p>;
  return (
    <div className="welcome-card-preview" aria-busy={state === 'loading'} style={{ position: 'relative', aspectRatio: `${CARD_WIDTH} / ${CARD_HEIGHT}` }}>
      {settled === null ? (
        <div style={{ position: 'absolute', inset: 0 }}>
          <Skeleton width="100%" height="100%" />
        </div>
      ) : null}
      <img
        src={url}
        width={CARD_WIDTH}
        height={CARD_HEIGHT}
        alt="Preview of the welcome card, drawn with your avatar and name"
        data-testid="welcome-card-preview"
        data-state={state}
        style={{ width: '100%', height: 'auto', display: state === 'failed' ? 'none' : 'block', borderRadius: 8 }}
        onLoad={() => setSettled({ url, state: 'ready' })}
        onError={() => setSettled({ url, state: 'failed' })}
      />
      {state === 'failed' ? <p className="error-text small">The preview could not be drawn. Check the title and colours.</p> : null}
    </div>
  );
}

/** A colour field: the picker and the value written out. */
function ColourField({
  label,
  value,
  onChange,
  error,
  disabled,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  disabled: boolean;
}) {
  return (
    <Field label={label} error={error}>
      {(ids) => (
        <div className="row" style={{ gap: 8, alignItems: 'center' }}>
          <Input {...ids} type="color" value={value} onChange={(event) => onChange(event.target.value)} disabled={disabled} style={{ width: 56, padding: 2 }} />
          <code className="small">{value}</code>
        </div>
      )}
    </Field>
  );
}

/** Props of the two cards. */
export interface CardSectionProps {
  guildId: string;
  draft: CardDraft;
  update: (changes: Partial<CardDraft>) => void;
  errors: Partial<Record<string, string>>;
  directory: GuildDirectory | undefined;
  readOnly: boolean;
  /** The message field (the page's template field with the goodbye's placeholders). */
  goodbyeField: ReactNode;
}

/** The Goodbye card. */
export function GoodbyeCard({ draft, update, errors, directory, readOnly, goodbyeField }: CardSectionProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Goodbye message</CardTitle>
        <CardDescription>Posted when a member leaves or is removed. It pings nobody, even when it names them.</CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <SwitchRow
          label="Enable goodbye messages"
          checked={draft.goodbyeEnabled}
          onChange={(goodbyeEnabled) => update({ goodbyeEnabled })}
          disabled={readOnly}
        />
        <Field label="Goodbye channel" error={errors.goodbyeChannelId}>
          {(ids) => (
            <ChannelPicker
              {...ids}
              value={draft.goodbyeChannelId}
              onChange={(goodbyeChannelId) => update({ goodbyeChannelId })}
              directory={directory}
              disabled={readOnly}
            />
          )}
        </Field>
        {goodbyeField}
      </CardContent>
    </Card>
  );
}

/** The Welcome card: switch, title, colours and the live preview. */
export function WelcomeCardCard({ guildId, draft, update, errors, readOnly }: CardSectionProps) {
  const titleProblem = unknownPlaceholderProblem(draft.welcomeCardTitle, CARD_PLACEHOLDERS);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Welcome card</CardTitle>
        <CardDescription>An image attached to the welcome: the member&apos;s avatar, name and member number. Drawn by the bot, free.</CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <SwitchRow
          label="Attach the welcome card"
          checked={draft.welcomeCardEnabled}
          onChange={(welcomeCardEnabled) => update({ welcomeCardEnabled })}
          disabled={readOnly}
        />
        <Field
          label="Card title"
          error={errors.welcomeCardTitle ?? (titleProblem ? `${titleProblem}.` : undefined)}
          hint={`Up to ${CARD_TITLE_MAX} characters. ${CARD_PLACEHOLDERS.map((placeholder) => `${placeholder.token}: ${placeholder.meaning}`).join('; ')}.`}
        >
          {(ids) => (
            <Input
              {...ids}
              value={draft.welcomeCardTitle}
              maxLength={CARD_TITLE_MAX}
              onChange={(event) => update({ welcomeCardTitle: event.target.value })}
              disabled={readOnly}
            />
          )}
        </Field>
        <div className="grid grid-2">
          <ColourField
            label="Background"
            value={draft.welcomeCardBackground}
            onChange={(welcomeCardBackground) => update({ welcomeCardBackground })}
            error={errors.welcomeCardBackground}
            disabled={readOnly}
          />
          <ColourField
            label="Accent"
            value={draft.welcomeCardAccent}
            onChange={(welcomeCardAccent) => update({ welcomeCardAccent })}
            error={errors.welcomeCardAccent}
            disabled={readOnly}
          />
        </div>
        <CardPreview guildId={guildId} draft={draft} />
      </CardContent>
    </Card>
  );
}
