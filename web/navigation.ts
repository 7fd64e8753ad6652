// The dashboard's navigation model: which pages exist, their labels (spec section 2, verbatim)
// and what each feature page is for. The sidebar, the router and the feature shell read it.
import {
  Backpack,
  Coins,
  Gavel,
  HandHeart,
  LayoutDashboard,
  ListChecks,
  Megaphone,
  Music,
  PlusCircle,
  Receipt,
  ScrollText,
  Server,
  Settings,
  SmilePlus,
  TrendingUp,
  type LucideIcon,
} from 'lucide-react';

/** A sidebar entry. */
export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
}

/** Sidebar entries when no server is selected. */
export const GLOBAL_NAV: readonly NavItem[] = [
  { label: 'My Servers', to: '/servers', icon: Server },
  { label: 'Server Management', to: '/server-management', icon: ListChecks },
  { label: 'Add Bot', to: '/add-bot', icon: PlusCircle },
];

/** A per-server feature page, reachable at /server/{id}/{slug} and unprefixed at /{slug}. */
export interface FeatureInfo {
  slug: string;
  /** The sidebar label and page title. */
  label: string;
  icon: LucideIcon;
  /** One line on what the page holds. */
  summary: string;
}

/** The per-server feature pages in sidebar order (after Dashboard). */
export const FEATURES: readonly FeatureInfo[] = [
  {
    slug: 'welcome',
    label: 'Welcome System',
    icon: HandHeart,
    summary: 'Greet new members with a custom message in the channel you choose, with a live preview and a test message.',
  },
  {
    slug: 'rules',
    label: 'Rule Verification',
    icon: ScrollText,
    summary: 'Post your rules with a check-mark reaction and give members the verification role once they accept.',
  },
  { slug: 'roles', label: 'Reaction Roles', icon: SmilePlus, summary: 'Let members pick their own roles by reacting to a message.' },
  {
    slug: 'leveling',
    label: 'Leveling System',
    icon: TrendingUp,
    summary: 'Members earn XP by chatting; tune cooldowns, level-up bonuses and multipliers, and see the top-10 leaderboard.',
  },
  {
    slug: 'economy',
    label: 'Economy & Shop',
    icon: Coins,
    summary: 'Manage the virtual currency, the shop items members can buy and the recent transactions.',
  },
  { slug: 'inventory', label: 'User Inventory', icon: Backpack, summary: 'See the roles, cosmetics and badges you bought in this server.' },
  {
    slug: 'announcements',
    label: 'Announcements',
    icon: Megaphone,
    summary: 'Send or schedule announcements to a channel, with a live preview and a priority banner.',
  },
  {
    slug: 'moderation',
    label: 'Moderation',
    icon: Gavel,
    summary: 'Ban, time out and warn members, handle reports, search the moderation log and set up auto moderation.',
  },
  {
    slug: 'music',
    label: 'Music',
    icon: Music,
    summary: 'Play music in voice channels: the player and its queue, the library of uploaded audio, radio stations and the music settings.',
  },
  {
    slug: 'settings',
    label: 'Settings',
    icon: Settings,
    summary: 'The bot’s name, prefix, feature switches, notifications, advanced options and data management.',
  },
];

/** The pages a member without dashboard access may open in a community: their rank and inventory. */
export const MEMBER_PAGES: readonly string[] = ['inventory'];

/** The per-server dashboard entry that heads the server sidebar. */
export const SERVER_DASHBOARD: Omit<FeatureInfo, 'summary'> = { slug: 'dashboard', label: 'Dashboard', icon: LayoutDashboard };

/** The transactions page, a link target of the economy page (not in the sidebar). */
export const TRANSACTIONS: FeatureInfo = {
  slug: 'transactions',
  label: 'Transactions',
  icon: Receipt,
  summary: 'Every purchase, reward and transfer of this server’s currency.',
};

/** Finds a feature page by its slug. */
export function findFeature(slug: string): FeatureInfo | undefined {
  return slug === TRANSACTIONS.slug ? TRANSACTIONS : FEATURES.find((feature) => feature.slug === slug);
}
