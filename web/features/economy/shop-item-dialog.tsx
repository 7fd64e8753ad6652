// The Add/Edit Shop Item dialog (spec section 2): Item Name, Type, Price, Description, Role ID (only
// for a role item), Cancel and Add Item / Update Item. The shared schema checks the form before it
// is sent (spec section 5: name, price and type required; the price parsed as a whole number, 0 when
// not numeric), and the server's reasons land under their fields.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ECONOMY_MESSAGES, SHOP_ITEM_LABELS, SHOP_ITEM_TYPES, ShopItemInput, type ShopItemType, type ShopItemView } from '../../../src/shared/economy';
import { zodFieldErrors } from '../../../src/shared/zod-fields';
import { fieldErrorsOf } from '../../api/client';
import { directoryQuery } from '../../api/guild';
import { useGuildMutation } from '../../api/mutations';
import { useUnsavedChanges } from '../../state/unsaved';
import { changedOnly } from '../../api/changes';
import { Field, RolePicker, SwitchRow } from '../../components/form';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { Textarea } from '../../components/ui/textarea';
import { parseWhole } from '../../numbers';
import { economyKeys, createShopItem, patchShopItem } from './api';

/** How each item type reads. */
export const ITEM_TYPE_LABELS: Record<ShopItemType, string> = { role: 'Role', cosmetic: 'Cosmetic', badge: 'Badge', other: 'Other' };

interface Draft {
  name: string;
  type: ShopItemType;
  price: string;
  description: string;
  roleId: string | null;
  stock: string;
  perMemberLimit: string;
  isActive: boolean;
}

/** The form for `item`, or a new item with the spec's defaults (section 9: type role, price 0). */
const draftOf = (item: ShopItemView | null): Draft => ({
  name: item?.name ?? '',
  type: item?.type ?? 'role',
  price: item ? String(item.price) : '0',
  description: item?.description ?? '',
  roleId: item?.roleId ?? null,
  stock: item?.stock === null || item?.stock === undefined ? '' : String(item.stock),
  perMemberLimit: item?.perMemberLimit === null || item?.perMemberLimit === undefined ? '' : String(item.perMemberLimit),
  isActive: item?.isActive ?? true,
});

/** An optional limit: empty means none. */
const optionalWhole = (text: string) => (text.trim() === '' ? null : parseWhole(text));

const bodyOf = (draft: Draft, guildId: string): ShopItemInput => ({
  name: draft.name,
  type: draft.type,
  price: parseWhole(draft.price),
  description: draft.description,
  roleId: draft.type === 'role' ? draft.roleId : null,
  stock: optionalWhole(draft.stock),
  perMemberLimit: optionalWhole(draft.perMemberLimit),
  isActive: draft.isActive,
  serverId: guildId,
});

/** Props of ShopItemDialog: `item` null adds, an item edits it. */
export interface ShopItemDialogProps {
  guildId: string;
  open: boolean;
  item: ShopItemView | null;
  onOpenChange: (open: boolean) => void;
}

/** The dialog; its form starts from the item each time it opens. */
export function ShopItemDialog({ guildId, open, item, onOpenChange }: ShopItemDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={item ? 'Edit Shop Item' : 'Add Shop Item'}
        description={item ? `Change ${item.name}.` : 'Members can buy it with /buy once it is in the shop.'}
      >
        {open ? <ShopItemForm key={item?.id ?? 'new'} guildId={guildId} item={item} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ShopItemForm({ guildId, item, onDone }: { guildId: string; item: ShopItemView | null; onDone: () => void }) {
  const directory = useQuery(directoryQuery(guildId)).data;
  const [draft, setDraft] = useState(() => draftOf(item));
  useUnsavedChanges(JSON.stringify(draft) !== JSON.stringify(draftOf(item)));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const save = useGuildMutation({
    request: () => {
      if (!item) return createShopItem(guildId, bodyOf(draft, guildId));
      // Only what the person changed, over the version they opened: a change someone made
      // meanwhile to other fields is kept (to the same ones, the server asks).
      const { serverId: _serverId, ...changes } = changedOnly(bodyOf(draft, guildId), bodyOf(draftOf(item), guildId));
      return patchShopItem(guildId, item.id, { ...changes, baseVersion: item.version });
    },
    onReload: onDone,
    invalidate: [economyKeys.all(guildId)],
    success: { title: item ? ECONOMY_MESSAGES.updated : ECONOMY_MESSAGES.created },
    failure: item ? ECONOMY_MESSAGES.updateFailed : ECONOMY_MESSAGES.createFailed,
    onSuccess: onDone,
  });
  const submit = () => {
    const checked = ShopItemInput.safeParse(bodyOf(draft, guildId));
    if (!checked.success) {
      setErrors(zodFieldErrors(checked.error, { labels: SHOP_ITEM_LABELS }));
      return;
    }
    setErrors({});
    save.mutate(undefined, { onError: (error) => setErrors(fieldErrorsOf(error)) });
  };

  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Field label="Item Name" error={errors.name}>
        {(ids) => <Input {...ids} value={draft.name} maxLength={100} onChange={(event) => update({ name: event.target.value })} autoFocus />}
      </Field>
      <div className="grid grid-2">
        <Field label="Type" error={errors.type}>
          {(ids) => (
            <Select
              id={ids.id}
              aria-label="Type"
              value={draft.type}
              onValueChange={(type) => update({ type: type as ShopItemType })}
              options={SHOP_ITEM_TYPES.map((type) => ({ value: type, label: ITEM_TYPE_LABELS[type] }))}
            />
          )}
        </Field>
        <Field label="Price" error={errors.price}>
          {(ids) => (
            <Input
              {...ids}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={draft.price}
              onChange={(event) => update({ price: event.target.value })}
            />
          )}
        </Field>
      </div>
      <Field label="Description" error={errors.description}>
        {(ids) => <Textarea {...ids} rows={3} maxLength={500} value={draft.description} onChange={(event) => update({ description: event.target.value })} />}
      </Field>
      {draft.type === 'role' ? (
        <Field label="Role ID" error={errors.roleId} hint="The role a member gets when they buy this item. It must be below the bot's highest role.">
          {(ids) => <RolePicker {...ids} value={draft.roleId} onChange={(roleId) => update({ roleId })} directory={directory} allowNone={false} />}
        </Field>
      ) : null}
      <div className="grid grid-2">
        <Field label="Stock" error={errors.stock} hint="How many can be sold. Empty for unlimited.">
          {(ids) => (
            <Input
              {...ids}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={draft.stock}
              onChange={(event) => update({ stock: event.target.value })}
            />
          )}
        </Field>
        <Field label="Limit per member" error={errors.perMemberLimit} hint="How many one member may own. Empty for unlimited.">
          {(ids) => (
            <Input
              {...ids}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={draft.perMemberLimit}
              onChange={(event) => update({ perMemberLimit: event.target.value })}
            />
          )}
        </Field>
      </div>
      <SwitchRow label="For sale" description="Hidden from /shop and /buy when off." checked={draft.isActive} onChange={(isActive) => update({ isActive })} />
      <div className="dialog-actions">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : item ? 'Update Item' : 'Add Item'}
        </Button>
      </div>
    </form>
  );
}
