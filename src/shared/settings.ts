/** Defaults of a guild's stored settings (spec sections 3 and 9), shared by the store and the dashboard. */
export const SETTINGS_DEFAULTS = {
  welcomeEnabled: false,
  welcomeChannelId: null as string | null,
  welcomeMessage: 'Welcome {user} to our server! 🎉',
  rulesChannelId: null as string | null,
  rulesMessage: null as string | null,
  verificationRoleId: null as string | null,
  verificationEnabled: false,
  levelingEnabled: true,
  economyEnabled: true,
  currencyName: 'coins',
  baseReward: 10,
  levelUpBonus: 100,
  /** Seconds between two messages that earn XP. */
  xpCooldown: 60,
  levelUpAnnouncements: true,
  textMultiplier: 1,
  voiceMultiplier: 0.5,
  weekendMultiplier: 1.5,
  boostMultiplier: 2,
};
