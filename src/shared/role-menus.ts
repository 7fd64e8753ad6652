// Role menus (issue 25, point 7): a message the bot posts with buttons or one select menu that
// hands out roles, the grown-up form of reaction roles. The schemas are shared with the dashboard;
// the mode rules are pure (given the member's roles and a click, the roles to add and remove).
import * as z from 'zod';
import { Snowflake } from './auth';
import { confirmRoleIds, optionalId, optionalText, text } from './fields';

export const ROLE_MENU_STYLES = ['buttons', 'select'] as const;
export type RoleMenuStyle = (typeof ROLE_MENU_STYLES)[number];
export const ROLE_MENU_MODES = ['normal', 'unique', 'verify', 'drop', 'reversed', 'binding'] as const;
export type RoleMenuMode = (typeof ROLE_MENU_MODES)[number];

/** What each mode does, for the dashboard. */
export const ROLE_MENU_MODE_LABELS: Record<RoleMenuMode, { label: string; description: string }> = {
  normal: { label: 'Normal', description: 'A click gives the role, a second click takes it away.' },
  unique: { label: 'Unique', description: "One role of this menu at a time: picking one takes the menu's others." },
  verify: { label: 'Verify', description: 'Picking gives the role; it is never taken away by the menu.' },
  drop: { label: 'Drop', description: 'Picking takes the role away.' },
  reversed: {
    label: 'Reversed',
    description: 'For roles members start with: a click takes the role, a second click gives it back; a select lists the roles to go without.',
  },
  binding: { label: 'Binding', description: "The first pick is final: once a member has one of this menu's roles, the menu changes nothing for them." },
};

/** Discord's limits: 25 options in a select, 5 rows of 5 buttons; an option's label at most 80 characters. */
export const MAX_ROLE_MENU_OPTIONS = 25;
export const ROLE_MENU_PREFIX = 'rolemenu';

export const RoleMenuOptionInput = z
  .object({
    roleId: Snowflake,
    label: text(80),
    emoji: optionalText(100).optional(),
    description: optionalText(100).optional(),
  })
  .strict();
export type RoleMenuOption = z.output<typeof RoleMenuOptionInput>;

const menuFields = {
  title: text(256),
  description: optionalText(2000).optional(),
  /** The embed's colour as #rrggbb. */
  colour: z
    .string({ error: 'must be a colour as #rrggbb' })
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb')
    .default('#5865f2'),
  style: z.enum(ROLE_MENU_STYLES, { error: 'must be buttons or select' }).default('buttons'),
  mode: z.enum(ROLE_MENU_MODES, { error: `must be one of ${ROLE_MENU_MODES.join(', ')}` }).default('normal'),
  /** At most this many of the menu's roles at once (null: no limit). */
  maxRoles: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(25, 'must be at most 25').nullish(),
  requiredRoleId: optionalId().optional(),
  options: z
    .array(RoleMenuOptionInput, { error: 'must be a list of options' })
    .min(1, 'must have at least one option')
    .max(MAX_ROLE_MENU_OPTIONS, `must have at most ${MAX_ROLE_MENU_OPTIONS} options`)
    .refine((options) => new Set(options.map((option) => option.roleId)).size === options.length, 'must each give a different role'),
  confirmRoleIds: confirmRoleIds(),
};

/** POST /api/servers/:guildId/role-menus: a new menu, posted in the channel. */
export const RoleMenuInput = z.object({ channelId: Snowflake, ...menuFields }).strict();
export type RoleMenuInput = z.input<typeof RoleMenuInput>;

/** PATCH /api/servers/:guildId/role-menus/:id: the whole menu again (its channel stays). */
export const RoleMenuPatch = z.object(menuFields).strict();
export type RoleMenuPatch = z.input<typeof RoleMenuPatch>;

/** A menu as listed. */
export const RoleMenuSchema = z.object({
  id: z.number().int(),
  channelId: z.string(),
  messageId: z.string().nullable(),
  title: z.string(),
  description: z.string().nullable(),
  colour: z.string(),
  style: z.enum(ROLE_MENU_STYLES),
  mode: z.enum(ROLE_MENU_MODES),
  maxRoles: z.number().int().nullable(),
  requiredRoleId: z.string().nullable(),
  options: z.array(z.object({ roleId: z.string(), label: z.string(), emoji: z.string().nullable(), description: z.string().nullable() })),
});
export type RoleMenuView = z.infer<typeof RoleMenuSchema>;

/** The custom id of a button (`rolemenu:<menuId>:<roleId>`) or of a menu's select (`rolemenu:<menuId>`). */
export function roleMenuCustomId(menuId: number, roleId?: string): string {
  return roleId ? `${ROLE_MENU_PREFIX}:${menuId}:${roleId}` : `${ROLE_MENU_PREFIX}:${menuId}`;
}

/** The menu and role a custom id names, or null when it is not a role menu's. */
export function parseRoleMenuCustomId(customId: string): { menuId: number; roleId: string | null } | null {
  const match = /^rolemenu:(\d{1,15}):?(\d{17,20})?$/.exec(customId);
  return match ? { menuId: Number(match[1]), roleId: match[2] ?? null } : null;
}

/** The roles to give and take. */
export interface RoleMenuChange {
  add: string[];
  remove: string[];
  /** True when maxRoles stopped some of the roles asked for. */
  limited: boolean;
  /** Present (true) when a binding menu refused: the member picked already. */
  bound?: true;
}

/**
 * What a pick does. `held` are the member's roles; for a button `picked` is the one clicked and
 * `fromSelect` false; for a select `picked` is the whole selection (the select replaces the member's
 * roles of this menu within what the mode allows). maxRoles caps how many of the menu's roles the
 * member ends with: additions beyond it are not made (limited).
 */
export function roleMenuChange(
  menu: { mode: RoleMenuMode; maxRoles: number | null; roleIds: readonly string[] },
  held: ReadonlySet<string>,
  picked: readonly string[],
  fromSelect: boolean,
): RoleMenuChange {
  const inMenu = new Set(menu.roleIds);
  const chosen = picked.filter((roleId) => inMenu.has(roleId));
  const has = menu.roleIds.filter((roleId) => held.has(roleId));
  let add: string[] = [];
  let remove: string[] = [];
  switch (menu.mode) {
    case 'normal':
      if (fromSelect) {
        add = chosen.filter((roleId) => !held.has(roleId));
        remove = has.filter((roleId) => !chosen.includes(roleId));
      } else {
        add = chosen.filter((roleId) => !held.has(roleId));
        remove = chosen.filter((roleId) => held.has(roleId));
      }
      break;
    case 'unique': {
      const pick = chosen.slice(0, 1);
      add = pick.filter((roleId) => !held.has(roleId));
      remove = has.filter((roleId) => !pick.includes(roleId));
      if (!fromSelect && pick.length === 1 && held.has(pick[0] as string)) remove = has; // a second click on the held one takes it
      break;
    }
    case 'verify':
      add = chosen.filter((roleId) => !held.has(roleId));
      break;
    case 'drop':
      remove = chosen.filter((roleId) => held.has(roleId));
      break;
    case 'reversed':
      if (fromSelect) {
        remove = chosen.filter((roleId) => held.has(roleId));
        add = menu.roleIds.filter((roleId) => !chosen.includes(roleId) && !held.has(roleId));
      } else {
        add = chosen.filter((roleId) => !held.has(roleId));
        remove = chosen.filter((roleId) => held.has(roleId));
      }
      break;
    case 'binding':
      if (has.length > 0) return { add: [], remove: [], limited: false, bound: true };
      add = chosen;
      break;
  }
  let limited = false;
  if (menu.maxRoles !== null && add.length > 0) {
    const room = Math.max(0, menu.maxRoles - (has.length - remove.length));
    if (add.length > room) {
      add = add.slice(0, room);
      limited = true;
    }
  }
  return { add, remove, limited };
}
