// The product's marketing copy (spec section 1), shared by the login and add-bot screens.
import { Coins, Shield, Users, type LucideIcon } from 'lucide-react';

/** One of the three feature areas the product advertises. */
export interface FeatureArea {
  title: string;
  description: string;
  icon: LucideIcon;
  points: readonly string[];
}

/** Member management, economy and leveling, moderation. */
export const FEATURE_AREAS: readonly FeatureArea[] = [
  {
    title: 'Member Management',
    description: 'Welcome messages, role verification, and member tracking.',
    icon: Users,
    points: ['Welcome messages', 'Role verification', 'Member tracking'],
  },
  {
    title: 'Economy & Leveling',
    description: 'Virtual currency, a shop, and XP levels with rewards.',
    icon: Coins,
    points: ['Virtual currency', 'Shop system', 'XP levels with rewards'],
  },
  {
    title: 'Moderation Tools',
    description: 'Logging, automated punishments, and audit trails.',
    icon: Shield,
    points: ['Moderation logging', 'Automated punishments', 'Audit trails'],
  },
];
