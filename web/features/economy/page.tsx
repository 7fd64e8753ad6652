// Economy & Shop (/server/{serverId}/economy, spec section 2): the stat cards, the shop grid with
// Add Item and per-item edit and delete, Quick Actions, Economy Settings and Recent Transactions,
// with skeletons while loading and the spec's empty states.
import { useQuery } from '@tanstack/react-query';
import { Coins, Pencil, Plus, Receipt, ShoppingBag, Store, Trash2, Trophy, Wallet } from 'lucide-react';
import { useState } from 'react';
import { ECONOMY_MESSAGES, type ShopItemView } from '../../../src/shared/economy';
import type { SettingsView } from '../../../src/shared/settings';
import { useGuildMutation } from '../../api/mutations';
import { useSettingsForm } from '../../api/settings-form';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DiagnosticsPanel } from '../../components/diagnostics-panel';
import { QueryList } from '../../components/query-list';
import { SaveBar, SettingsForm, SettingsShell, type SettingsBodyProps } from '../../components/settings-shell';
import { formatNumber, StatCard } from '../../components/stat-card';
import { Field, SwitchRow } from '../../components/form';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { parseWhole } from '../../numbers';
import { deleteShopItem, economyKeys, economyStatsQuery, shopQuery, transactionsQuery } from './api';
import { QuickActions } from './quick-actions';
import { ITEM_TYPE_LABELS, ShopItemDialog } from './shop-item-dialog';
import { TransactionTable } from './transaction-table';

interface Draft {
  economyEnabled: boolean;
  currencyName: string;
  baseReward: string;
  dailyReward: string;
}

const draftOf = (view: SettingsView): Draft => ({
  economyEnabled: view.economyEnabled,
  currencyName: view.currencyName,
  baseReward: String(view.baseReward),
  dailyReward: String(view.dailyReward),
});
const bodyOf = (draft: Draft) => ({
  economyEnabled: draft.economyEnabled,
  currencyName: draft.currencyName,
  baseReward: parseWhole(draft.baseReward),
  dailyReward: parseWhole(draft.dailyReward),
});

/** The four headline numbers. */
function EconomyStats({ guildId, currency }: { guildId: string; currency: string }) {
  const stats = useQuery(economyStatsQuery(guildId)).data;
  return (
    <div className="grid grid-stats">
      <StatCard
        label="Total Currency"
        value={stats?.totalCurrency}
        icon={Coins}
        hint={stats ? `${currency} held by ${formatNumber(stats.totalUsers)} members` : undefined}
      />
      <StatCard label="Shop Items" value={stats?.totalShopItems} icon={Store} tone="info" />
      <StatCard label="Daily Transactions" value={stats?.dailyTransactions} icon={Receipt} tone="success" hint="In the last 24 hours" />
      <StatCard
        label="Top Earner"
        value={stats ? (stats.topEarner?.username ?? 'Nobody yet') : undefined}
        icon={Trophy}
        tone="warning"
        hint={stats?.topEarner ? `${formatNumber(stats.topEarner.balance)} ${currency}` : undefined}
      />
    </div>
  );
}

/** One item of the shop grid. */
function ShopItemCard({
  item,
  currency,
  readOnly,
  onEdit,
  onDelete,
}: {
  item: ShopItemView;
  currency: string;
  readOnly: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Card className="shop-item">
      <CardHeader>
        <div className="row row-between">
          <CardTitle>{item.name}</CardTitle>
          <Badge tone={item.type === 'role' ? 'brand' : 'neutral'}>{ITEM_TYPE_LABELS[item.type]}</Badge>
        </div>
        {item.description ? <CardDescription>{item.description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="stack-sm">
        <p className="stat-value">
          {formatNumber(item.price)} <span className="muted small">{currency}</span>
        </p>
        {item.type === 'role' ? <p className="small">Gives {item.roleName ? `@${item.roleName}` : `role ${item.roleId ?? ''}`}</p> : null}
        <p className="muted small">
          Bought {formatNumber(item.purchaseCount)} {item.purchaseCount === 1 ? 'time' : 'times'}
          {item.stock !== null ? ` · ${formatNumber(Math.max(0, item.stock - item.purchaseCount))} left` : ''}
          {item.perMemberLimit !== null ? ` · ${item.perMemberLimit} per member` : ''}
        </p>
        {item.isActive ? null : <Badge tone="warning">Not for sale</Badge>}
        {readOnly ? null : (
          <div className="row">
            <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${item.name}`}>
              <Pencil size={14} aria-hidden="true" /> Edit
            </Button>
            <Button variant="ghost" size="sm" onClick={onDelete} aria-label={`Delete ${item.name}`}>
              <Trash2 size={14} aria-hidden="true" /> Delete
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** The shop grid, Add Item, and the item dialog and delete confirmation. */
function Shop({ guildId, currency, readOnly }: { guildId: string; currency: string; readOnly: boolean }) {
  const shop = useQuery(shopQuery(guildId));
  const [editing, setEditing] = useState<{ item: ShopItemView | null } | null>(null);
  const [deleting, setDeleting] = useState<ShopItemView | null>(null);
  const remove = useGuildMutation({
    request: (item: ShopItemView) => deleteShopItem(guildId, item.id),
    invalidate: [economyKeys.all(guildId)],
    success: { title: ECONOMY_MESSAGES.deleted },
    failure: ECONOMY_MESSAGES.deleteFailed,
    onSuccess: () => setDeleting(null),
  });
  return (
    <Card>
      <CardHeader>
        <div className="row row-between">
          <div>
            <CardTitle>Shop</CardTitle>
            <CardDescription>What members can buy with /buy.</CardDescription>
          </div>
          {readOnly ? null : (
            <Button onClick={() => setEditing({ item: null })}>
              <Plus size={16} aria-hidden="true" /> Add Item
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent>
        <QueryList
          query={shop}
          what="the shop"
          rowHeight="8rem"
          empty={{ icon: ShoppingBag, title: ECONOMY_MESSAGES.noItems, description: 'Add an item: a role, a cosmetic or a badge members can buy.' }}
        >
          {(items) => (
            <div className="grid grid-cards" role="list" aria-label="Shop items">
              {items.map((item) => (
                <div role="listitem" key={item.id}>
                  <ShopItemCard item={item} currency={currency} readOnly={readOnly} onEdit={() => setEditing({ item })} onDelete={() => setDeleting(item)} />
                </div>
              ))}
            </div>
          )}
        </QueryList>
      </CardContent>
      <ShopItemDialog guildId={guildId} open={editing !== null} item={editing?.item ?? null} onOpenChange={(open) => (open ? null : setEditing(null))} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        title="Delete Item"
        description={deleting ? `Delete ${deleting.name} from the shop? Members who bought it keep it in their inventory.` : ''}
        confirmLabel="Delete"
        onConfirm={() => deleting && remove.mutate(deleting)}
        pending={remove.isPending}
      />
    </Card>
  );
}

/** Recent Transactions: the last ten rows of the ledger. */
function RecentTransactions({ guildId, currency }: { guildId: string; currency: string }) {
  const recent = useQuery(transactionsQuery(guildId, { limit: 10 }));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent Transactions</CardTitle>
        <CardDescription>The last ten changes to any balance.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryList
          query={{ ...recent, data: recent.data?.entries }}
          what="the transactions"
          empty={{ icon: Wallet, title: ECONOMY_MESSAGES.noTransactions, description: 'Members earn coins by chatting; purchases and gifts show here too.' }}
        >
          {(entries) => <TransactionTable entries={entries} currency={currency} caption="Recent transactions" />}
        </QueryList>
      </CardContent>
    </Card>
  );
}

/** The page's body once the settings have loaded. */
function EconomyBody({ guildId, view, readOnly }: SettingsBodyProps) {
  const form = useSettingsForm({
    guildId,
    view,
    draftOf,
    bodyOf,
    success: { title: 'Settings Saved', description: 'Economy settings have been updated successfully.' },
    failure: { title: 'Save Failed', description: 'Failed to save economy settings.' },
    invalidate: [economyKeys.all(guildId)],
  });
  const { draft, update, errors } = form;
  const currency = view.currencyName;
  return (
    <div className="stack">
      <EconomyStats guildId={guildId} currency={currency} />
      <Shop guildId={guildId} currency={currency} readOnly={readOnly} />
      <div className="grid grid-2">
        <QuickActions guildId={guildId} currency={currency} readOnly={readOnly} />
        <SettingsForm label="Economy settings" onSave={form.save}>
          <Card>
            <CardHeader>
              <CardTitle>Economy Settings</CardTitle>
              <CardDescription>Members earn the base reward per message, on the leveling cooldown.</CardDescription>
            </CardHeader>
            <CardContent className="stack">
              <Field label="Currency Name" error={errors.currencyName}>
                {(ids) => (
                  <Input
                    {...ids}
                    maxLength={32}
                    value={draft.currencyName}
                    onChange={(event) => update({ currencyName: event.target.value })}
                    disabled={readOnly}
                  />
                )}
              </Field>
              <Field label="Base Reward per Message" error={errors.baseReward}>
                {(ids) => (
                  <Input
                    {...ids}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    step={1}
                    value={draft.baseReward}
                    onChange={(event) => update({ baseReward: event.target.value })}
                    disabled={readOnly}
                  />
                )}
              </Field>
              <Field label="Daily Reward" error={errors.dailyReward} hint="What /daily gives once a day; 0 turns /daily off.">
                {(ids) => (
                  <Input
                    {...ids}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    step={1}
                    value={draft.dailyReward}
                    onChange={(event) => update({ dailyReward: event.target.value })}
                    disabled={readOnly}
                  />
                )}
              </Field>
              <SwitchRow
                label="Enable Economy"
                checked={draft.economyEnabled}
                onChange={(economyEnabled) => update({ economyEnabled })}
                disabled={readOnly}
                error={errors.economyEnabled}
              />
            </CardContent>
          </Card>
          {readOnly ? null : <SaveBar dirty={form.dirty} saving={form.saving} onDiscard={form.discard} saveLabel="Save Settings" />}
        </SettingsForm>
      </div>
      <RecentTransactions guildId={guildId} currency={currency} />
      <DiagnosticsPanel guildId={guildId} features="economy" />
    </div>
  );
}

/** The Economy & Shop page. */
export default function EconomyPage() {
  return (
    <SettingsShell title="Economy & Shop" description="The server's currency, the shop members buy from, and every transaction.">
      {(props) => <EconomyBody {...props} />}
    </SettingsShell>
  );
}
