// Role menus (issue 25, point 7) on the roles page: the guild's menus, and a builder dialog (title,
// description, colour, style, mode, at most N roles, a required role, options with role, label,
// emoji and description) with a preview of the message; Post creates and posts it, Save edits the
// posted message in place, Delete takes the menu and its message away.
import { useQuery } from '@tanstack/react-query';
import { ListChecks, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import {
  ROLE_MENU_MODE_LABELS,
  ROLE_MENU_MODES,
  RoleMenuSchema,
  type RoleMenuMode,
  type RoleMenuStyle,
  type RoleMenuView,
} from '../../../src/shared/role-menus';
import { apiRequest, fieldErrorsOf } from '../../api/client';
import { directoryQuery, guildApi, guildKeys, readGuild } from '../../api/guild';
import { useGuildMutation } from '../../api/mutations';
import { useUnsavedChanges } from '../../state/unsaved';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DiscordPreview } from '../../components/discord-preview';
import { ChannelPicker, EmojiPicker, Field, RolePicker } from '../../components/form';
import { QueryList } from '../../components/query-list';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { Textarea } from '../../components/ui/textarea';

const listKey = (guildId: string) => [...guildKeys.all(guildId), 'role-menus'] as const;
const MODE_OPTIONS = ROLE_MENU_MODES.map((mode) => ({ value: mode, label: ROLE_MENU_MODE_LABELS[mode].label }));
const STYLE_OPTIONS = [
  { value: 'buttons', label: 'Buttons' },
  { value: 'select', label: 'Select menu' },
];

interface OptionDraft {
  roleId: string | null;
  label: string;
  emoji: string | null;
  description: string;
}
interface Draft {
  channelId: string | null;
  title: string;
  description: string;
  colour: string;
  style: RoleMenuStyle;
  mode: RoleMenuMode;
  maxRoles: string;
  requiredRoleId: string | null;
  options: OptionDraft[];
}

const EMPTY_OPTION: OptionDraft = { roleId: null, label: '', emoji: null, description: '' };
const EMPTY: Draft = {
  channelId: null,
  title: '',
  description: '',
  colour: '#5865f2',
  style: 'buttons',
  mode: 'normal',
  maxRoles: '',
  requiredRoleId: null,
  options: [EMPTY_OPTION],
};

function draftOf(menu: RoleMenuView): Draft {
  return {
    channelId: menu.channelId,
    title: menu.title,
    description: menu.description ?? '',
    colour: menu.colour,
    style: menu.style,
    mode: menu.mode,
    maxRoles: menu.maxRoles === null ? '' : String(menu.maxRoles),
    requiredRoleId: menu.requiredRoleId,
    options: menu.options.map((option) => ({ ...option, description: option.description ?? '' })),
  };
}

function bodyOf(draft: Draft) {
  return {
    title: draft.title,
    description: draft.description.trim() || null,
    colour: draft.colour,
    style: draft.style,
    mode: draft.mode,
    maxRoles: draft.maxRoles.trim() ? Number(draft.maxRoles) : null,
    requiredRoleId: draft.requiredRoleId,
    options: draft.options.map((option) => ({
      roleId: option.roleId ?? '',
      label: option.label,
      emoji: option.emoji,
      description: option.description.trim() || null,
    })),
  };
}

/** How the message will look: the embed, then its buttons or its select. */
function MenuPreview({ draft }: { draft: Draft }) {
  return (
    <div className="stack">
      <DiscordPreview
        botName="Bot"
        embeds={[{ title: draft.title || 'Title', description: draft.description, color: Number.parseInt(draft.colour.slice(1), 16) || 0 }]}
      />
      <div className="row wrap" aria-label="Components preview">
        {draft.style === 'buttons' ? (
          draft.options.map((option, index) => (
            <span key={index} className="badge">
              {option.emoji ?? ''} {option.label || 'Label'}
            </span>
          ))
        ) : (
          <span className="badge">▾ Pick your roles ({draft.options.length} options)</span>
        )}
      </div>
    </div>
  );
}

/** The builder dialog: a new menu when `menu` is null, else editing that one. */
function Builder({ guildId, menu, onClose }: { guildId: string; menu: RoleMenuView | null; onClose: () => void }) {
  const directory = useQuery(directoryQuery(guildId)).data;
  const [draft, setDraft] = useState<Draft>(menu ? draftOf(menu) : EMPTY);
  useUnsavedChanges(JSON.stringify(draft) !== JSON.stringify(menu ? draftOf(menu) : EMPTY));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const updateOption = (index: number, patch: Partial<OptionDraft>) =>
    setDraft((current) => ({ ...current, options: current.options.map((option, at) => (at === index ? { ...option, ...patch } : option)) }));
  const save = useGuildMutation({
    request: async (next: Draft) =>
      RoleMenuSchema.parse(
        menu
          ? await apiRequest('PATCH', `${guildApi(guildId)}/role-menus/${menu.id}`, bodyOf(next))
          : await apiRequest('POST', `${guildApi(guildId)}/role-menus`, { channelId: next.channelId ?? '', ...bodyOf(next) }),
      ),
    invalidate: [listKey(guildId)],
    success: menu ? { title: 'Role menu saved', description: 'The posted message was edited in place.' } : { title: 'Role menu posted' },
    failure: { title: menu ? 'Could not save the role menu' : 'Could not post the role menu' },
    onSuccess: onClose,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(draft, { onError: (error) => setErrors(fieldErrorsOf(error)) });
  };
  return (
    <form onSubmit={submit} className="stack" aria-label="Role menu builder">
      {menu ? null : (
        <Field label="Channel" error={errors.channelId}>
          {(ids) => <ChannelPicker {...ids} value={draft.channelId} onChange={(channelId) => update({ channelId })} directory={directory} allowNone={false} />}
        </Field>
      )}
      <Field label="Title" error={errors.title}>
        {(ids) => <Input {...ids} value={draft.title} maxLength={256} onChange={(event) => update({ title: event.target.value })} />}
      </Field>
      <Field label="Description" error={errors.description}>
        {(ids) => <Textarea {...ids} value={draft.description} maxLength={2000} onChange={(event) => update({ description: event.target.value })} />}
      </Field>
      <div className="grid grid-2">
        <Field label="Colour" error={errors.colour}>
          {(ids) => <Input {...ids} type="color" value={draft.colour} onChange={(event) => update({ colour: event.target.value })} />}
        </Field>
        <Field label="Style" error={errors.style}>
          {(ids) => <Select {...ids} options={STYLE_OPTIONS} value={draft.style} onValueChange={(style) => update({ style: style as RoleMenuStyle })} />}
        </Field>
        <Field label="Mode" hint={ROLE_MENU_MODE_LABELS[draft.mode].description} error={errors.mode}>
          {(ids) => <Select {...ids} options={MODE_OPTIONS} value={draft.mode} onValueChange={(mode) => update({ mode: mode as RoleMenuMode })} />}
        </Field>
        <Field label="At most this many roles (optional)" error={errors.maxRoles}>
          {(ids) => <Input {...ids} type="number" min={1} max={25} value={draft.maxRoles} onChange={(event) => update({ maxRoles: event.target.value })} />}
        </Field>
      </div>
      <Field label="Role required to use the menu (optional)" error={errors.requiredRoleId}>
        {(ids) => (
          <RolePicker
            {...ids}
            value={draft.requiredRoleId}
            onChange={(requiredRoleId) => update({ requiredRoleId })}
            directory={directory}
            assignableOnly={false}
          />
        )}
      </Field>
      <fieldset className="stack">
        <legend className="strong">Options</legend>
        {errors.options ? <p className="error-text small">{errors.options}</p> : null}
        {draft.options.map((option, index) => (
          <div key={index} className="grid grid-2" role="group" aria-label={`Option ${index + 1}`}>
            <Field label={`Role ${index + 1}`} error={errors[`options.${index}.roleId`]}>
              {(ids) => (
                <RolePicker {...ids} value={option.roleId} onChange={(roleId) => updateOption(index, { roleId })} directory={directory} allowNone={false} />
              )}
            </Field>
            <Field label={`Label ${index + 1}`} error={errors[`options.${index}.label`]}>
              {(ids) => <Input {...ids} value={option.label} maxLength={80} onChange={(event) => updateOption(index, { label: event.target.value })} />}
            </Field>
            <Field label={`Emoji ${index + 1} (optional)`} error={errors[`options.${index}.emoji`]}>
              {(ids) => <EmojiPicker {...ids} value={option.emoji} onChange={(emoji) => updateOption(index, { emoji })} directory={directory} />}
            </Field>
            {draft.style === 'select' ? (
              <Field label={`Description ${index + 1} (optional)`} error={errors[`options.${index}.description`]}>
                {(ids) => (
                  <Input {...ids} value={option.description} maxLength={100} onChange={(event) => updateOption(index, { description: event.target.value })} />
                )}
              </Field>
            ) : null}
            {draft.options.length > 1 ? (
              <Button
                type="button"
                variant="ghost"
                aria-label={`Remove option ${index + 1}`}
                onClick={() => update({ options: draft.options.filter((_, at) => at !== index) })}
              >
                <Trash2 size={16} aria-hidden="true" /> Remove
              </Button>
            ) : null}
          </div>
        ))}
        {draft.options.length < 25 ? (
          <Button type="button" variant="outline" onClick={() => update({ options: [...draft.options, EMPTY_OPTION] })}>
            <Plus size={16} aria-hidden="true" /> Add an option
          </Button>
        ) : null}
      </fieldset>
      <MenuPreview draft={draft} />
      <div className="row">
        <Button type="submit" disabled={save.isPending}>
          {menu ? 'Save' : 'Post'}
        </Button>
        <Button type="button" variant="ghost" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** The "Role menus" section of the roles page. */
export function RoleMenus({ guildId, canEdit }: { guildId: string; canEdit: boolean }) {
  const list = useQuery({ queryKey: listKey(guildId), queryFn: readGuild(guildId, '/role-menus', RoleMenuSchema.array()) });
  const [editing, setEditing] = useState<RoleMenuView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<RoleMenuView | null>(null);
  const remove = useGuildMutation({
    request: (id: number) => apiRequest('DELETE', `${guildApi(guildId)}/role-menus/${id}`),
    invalidate: [listKey(guildId)],
    success: { title: 'Role menu deleted' },
    failure: { title: 'Could not delete the role menu' },
    onSuccess: () => setDeleting(null),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Role menus</CardTitle>
        <CardDescription>Buttons or a select menu under a message of the bot: members pick their roles with a click.</CardDescription>
      </CardHeader>
      <CardContent className="stack">
        {canEdit ? (
          <Button type="button" onClick={() => setEditing('new')}>
            <Plus size={16} aria-hidden="true" /> New role menu
          </Button>
        ) : null}
        <QueryList
          query={list}
          what="the role menus"
          empty={{ icon: ListChecks, title: 'No role menus yet', description: 'Build one: the bot posts it for you.' }}
        >
          {(menus) => (
            <ul className="stack" aria-label="Role menus">
              {menus.map((menu) => (
                <li key={menu.id} className="row wrap">
                  <span className="strong">{menu.title}</span>
                  <Badge>{menu.style === 'select' ? 'Select menu' : 'Buttons'}</Badge>
                  <Badge>{ROLE_MENU_MODE_LABELS[menu.mode].label}</Badge>
                  <span className="muted small">{menu.options.length} roles</span>
                  {canEdit ? (
                    <>
                      <Button variant="ghost" size="icon" aria-label={`Edit ${menu.title}`} onClick={() => setEditing(menu)}>
                        <Pencil size={16} aria-hidden="true" />
                      </Button>
                      <Button variant="ghost" size="icon" aria-label={`Delete ${menu.title}`} onClick={() => setDeleting(menu)}>
                        <Trash2 size={16} aria-hidden="true" />
                      </Button>
                    </>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </QueryList>
      </CardContent>
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        {editing !== null ? (
          <DialogContent title={editing === 'new' ? 'New role menu' : `Edit ${editing.title}`}>
            <Builder guildId={guildId} menu={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
          </DialogContent>
        ) : null}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this role menu?"
        description="The bot deletes its message. Members keep the roles they already have."
        confirmLabel="Delete"
        tone="danger"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </Card>
  );
}
