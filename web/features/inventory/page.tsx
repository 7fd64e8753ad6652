// User Inventory (/server/{serverId}/inventory, spec section 2 "My Inventory"): the signed-in
// person's rank and the items they bought; admins and viewers may pick another member. Counts
// (Total Items, Roles, Cosmetics, Badges), an item grid with an info button and a remove button
// (never for roles), and 'No Items Yet' with 'Visit Shop'. Plain members open it from "Communities
// you're in", so it reads only routes open to members.
import { useQuery } from '@tanstack/react-query';
import { Award, Backpack, Coins, Crown, Info, Package, Palette, ShoppingBag, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { atLeast } from '../../../src/shared/access';
import { ECONOMY_MESSAGES, type InventoryItem } from '../../../src/shared/economy';
import { ProfileSchema, type Profile } from '../../../src/shared/leveling';
import { errorMessage } from '../../api/client';
import { guildKeys, readGuild } from '../../api/guild';
import { useGuildMutation } from '../../api/mutations';
import { useCurrentUser, useServerEntry } from '../../api/queries';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page-header';
import { QueryList } from '../../components/query-list';
import { formatNumber, StatCard } from '../../components/stat-card';
import { Field, MemberPicker } from '../../components/form';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClass } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Skeleton } from '../../components/ui/skeleton';
import { formatDateTime } from '../../format';
import { serverPath } from '../../state/server';
import { economyKeys, inventoryQuery, removeInventoryEntry, shopQuery } from '../economy/api';
import { ITEM_TYPE_LABELS } from '../economy/shop-item-dialog';

const profileQuery = (guildId: string, userId: string) => ({
  queryKey: [...guildKeys.all(guildId), 'profile', userId] as const,
  queryFn: readGuild(guildId, `/members/${encodeURIComponent(userId)}/profile`, ProfileSchema),
});

/** The rank card: level, progress to the next, place on the leaderboard, coins. */
function RankCard({ profile, self }: { profile: Profile | undefined; self: boolean }) {
  if (!profile) {
    return (
      <Card>
        <CardContent className="stack-sm" role="status" aria-busy="true" aria-label="Loading the rank">
          <Skeleton height="1.5rem" width="12rem" />
          <Skeleton height="0.75rem" />
        </CardContent>
      </Card>
    );
  }
  const needed = profile.xp + profile.xpToNext;
  const percent = needed > 0 ? Math.round((profile.xp / needed) * 100) : 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{self ? 'Your rank' : `${profile.username ?? profile.userId}'s rank`}</CardTitle>
        <CardDescription>
          {profile.rank === null
            ? 'No XP yet: chatting in the server earns it.'
            : `#${formatNumber(profile.rank)} on the leaderboard · ${formatNumber(profile.messagesCount)} messages`}
        </CardDescription>
      </CardHeader>
      <CardContent className="stack-sm">
        <div className="row row-between">
          <strong>Level {profile.level}</strong>
          <span className="muted small">
            {formatNumber(profile.xp)} / {formatNumber(needed)} XP · {formatNumber(profile.xpToNext)} to level {profile.level + 1}
          </span>
        </div>
        <progress className="progress" value={percent} max={100} aria-label={`Progress to level ${profile.level + 1}`}>
          {percent}%
        </progress>
        <p className="small">
          <Coins size={14} aria-hidden="true" /> {formatNumber(profile.balance)} {profile.currencyName} · {formatNumber(profile.totalEarned)} earned in all
        </p>
      </CardContent>
    </Card>
  );
}

/** What the shop sells, for members who cannot open the economy page. */
function ShopList({ guildId, currency }: { guildId: string; currency: string }) {
  const shop = useQuery(shopQuery(guildId));
  return (
    <Card id="shop">
      <CardHeader>
        <CardTitle>Shop</CardTitle>
        <CardDescription>Buy in Discord with /buy and the item's name.</CardDescription>
      </CardHeader>
      <CardContent>
        <QueryList
          query={shop}
          what="the shop"
          empty={{ icon: ShoppingBag, title: ECONOMY_MESSAGES.noItems, description: 'Nothing is for sale in this server yet.' }}
        >
          {(items) => (
            <ul className="history-list" aria-label="For sale">
              {items.map((item) => (
                <li key={item.id} className="history-item row row-between">
                  <span>
                    <strong>{item.name}</strong> <Badge>{ITEM_TYPE_LABELS[item.type]}</Badge>
                  </span>
                  <span>
                    {formatNumber(item.price)} {currency}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </QueryList>
      </CardContent>
    </Card>
  );
}

const TYPE_ICONS = { role: Crown, cosmetic: Palette, badge: Award, other: Package } as const;

/** One item: its type, count, an info button and, except for roles, remove. */
function ItemCard({ item, canRemove, onRemove }: { item: InventoryItem; canRemove: boolean; onRemove: () => void }) {
  const [info, setInfo] = useState(false);
  const Icon = TYPE_ICONS[item.itemType];
  return (
    <Card className="inventory-item">
      <CardHeader>
        <div className="row row-between">
          <CardTitle>
            <Icon size={16} aria-hidden="true" /> {item.itemName}
          </CardTitle>
          <Badge tone={item.itemType === 'role' ? 'brand' : 'neutral'}>{ITEM_TYPE_LABELS[item.itemType]}</Badge>
        </div>
        <CardDescription>{item.quantity > 1 ? `× ${formatNumber(item.quantity)}` : 'One owned'}</CardDescription>
      </CardHeader>
      <CardContent className="row">
        <Button variant="outline" size="sm" onClick={() => setInfo(true)} aria-label={`About ${item.itemName}`}>
          <Info size={14} aria-hidden="true" /> Info
        </Button>
        {canRemove && item.itemType !== 'role' ? (
          <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove ${item.itemName}`}>
            <Trash2 size={14} aria-hidden="true" /> Remove
          </Button>
        ) : null}
      </CardContent>
      <Dialog open={info} onOpenChange={setInfo}>
        <DialogContent title={item.itemName} description={item.description ?? 'No description.'}>
          <dl className="detail-list">
            <dt>Type</dt>
            <dd>{ITEM_TYPE_LABELS[item.itemType]}</dd>
            <dt>Quantity</dt>
            <dd>{formatNumber(item.quantity)}</dd>
            <dt>Bought</dt>
            <dd>
              <time dateTime={item.acquiredAt}>{formatDateTime(item.acquiredAt)}</time>
            </dd>
          </dl>
          {item.itemType === 'role' ? <p className="muted small">Role items stay: the role is yours while you own it.</p> : null}
        </DialogContent>
      </Dialog>
    </Card>
  );
}

/** The User Inventory page. */
export default function InventoryPage() {
  const { serverId = '' } = useParams();
  const me = useCurrentUser().data;
  const entry = useServerEntry(serverId);
  const level = entry?.access ?? 'member';
  const [picked, setPicked] = useState<string | null>(null);
  const myId = me?.discordId ?? '';
  const userId = picked ?? myId;
  const self = userId === myId;
  const profile = useQuery({ ...profileQuery(serverId, userId), enabled: userId !== '' });
  const inventory = useQuery({ ...inventoryQuery(serverId, userId), enabled: userId !== '' });
  const [removing, setRemoving] = useState<InventoryItem | null>(null);
  const remove = useGuildMutation({
    request: (item: InventoryItem) => removeInventoryEntry(serverId, userId, item.id),
    invalidate: [economyKeys.inventory(serverId, userId)],
    success: (_result) => ({ title: 'Item Removed', description: `${removing?.itemName ?? 'The item'} is no longer in the inventory.` }),
    failure: (error) => ({ title: 'Remove Failed', description: errorMessage(error) }),
    onSuccess: () => setRemoving(null),
  });
  const items = inventory.data?.items;
  const count = (type?: InventoryItem['itemType']) =>
    items ? items.filter((item) => !type || item.itemType === type).reduce((sum, item) => sum + item.quantity, 0) : undefined;
  const manager = atLeast(level, 'view');
  const canRemove = self || atLeast(level, 'edit');
  const currency = profile.data?.currencyName ?? 'coins';

  return (
    <>
      <PageHeader
        title="User Inventory"
        serverName={entry?.name}
        description={self ? 'The roles, cosmetics and badges you bought in this server.' : `The items ${inventory.data?.username ?? 'this member'} bought.`}
      />
      <div className="stack">
        {manager ? (
          <Card>
            <CardContent className="row">
              <div className="grow">
                <Field label="Member">{(ids) => <MemberPicker {...ids} guildId={serverId} value={picked} onChange={setPicked} placeholder="You" />}</Field>
              </div>
              {picked ? (
                <Button variant="outline" onClick={() => setPicked(null)}>
                  Show mine
                </Button>
              ) : null}
            </CardContent>
          </Card>
        ) : null}
        {profile.isError ? (
          <p className="error-text">Could not load the rank: {errorMessage(profile.error)}</p>
        ) : (
          <RankCard profile={profile.data} self={self} />
        )}
        <div className="grid grid-stats">
          <StatCard label="Total Items" value={count()} icon={Backpack} />
          <StatCard label="Roles" value={count('role')} icon={Crown} tone="info" />
          <StatCard label="Cosmetics" value={count('cosmetic')} icon={Palette} tone="success" />
          <StatCard label="Badges" value={count('badge')} icon={Award} tone="warning" />
        </div>
        <Card>
          <CardHeader>
            <CardTitle>Items</CardTitle>
          </CardHeader>
          <CardContent>
            <QueryList
              query={{ ...inventory, isPending: inventory.isPending || userId === '', data: items }}
              what="the inventory"
              rowHeight="6rem"
              empty={{
                icon: Backpack,
                title: ECONOMY_MESSAGES.noInventory,
                description: self ? 'Items you buy with /buy show here.' : 'This member has not bought anything yet.',
                actions: manager ? (
                  <Link to={serverPath(serverId, 'economy')} className={buttonClass('primary')}>
                    <ShoppingBag size={16} aria-hidden="true" /> Visit Shop
                  </Link>
                ) : (
                  <a href="#shop" className={buttonClass('primary')}>
                    <ShoppingBag size={16} aria-hidden="true" /> Visit Shop
                  </a>
                ),
              }}
            >
              {(list) => (
                <div className="grid grid-cards" role="list" aria-label="Inventory">
                  {list.map((item) => (
                    <div role="listitem" key={item.id}>
                      <ItemCard item={item} canRemove={canRemove} onRemove={() => setRemoving(item)} />
                    </div>
                  ))}
                </div>
              )}
            </QueryList>
          </CardContent>
        </Card>
        {manager ? null : <ShopList guildId={serverId} currency={currency} />}
      </div>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? null : setRemoving(null))}
        title="Remove Item"
        description={removing ? `Remove ${removing.itemName} from ${self ? 'your' : 'this member’s'} inventory? Nothing is refunded.` : ''}
        confirmLabel="Remove"
        onConfirm={() => removing && remove.mutate(removing)}
        pending={remove.isPending}
      />
    </>
  );
}
