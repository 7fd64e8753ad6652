import type { AnnouncementStatusName } from '../../shared/announcements';
import type { ReactionRoleMode } from '../../shared/reaction-roles';
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** Reacting with `emoji` on message `messageId` gives role `roleId`. */
export class ReactionRole extends Model<InferAttributes<ReactionRole>, InferCreationAttributes<ReactionRole>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare messageId: string;
  declare channelId: string;
  /** A unicode emoji, or `name:id` for a custom one. */
  declare emoji: string;
  /** The custom emoji's id (reactions are matched on it); null for unicode. */
  declare emojiId: string | null;
  declare roleId: string;
  declare roleName: string | null;
  declare mode: CreationOptional<ReactionRoleMode>;
  declare isActive: CreationOptional<boolean>;
  /** Why the entry stopped working (its message was deleted), when it did. */
  declare inactiveReason: string | null;
  declare createdBy: string | null;
  declare createdAt: Date;
  /** Counts edits (not purchases or sends): a save based on an older version is recognised. */
  declare version: CreationOptional<number>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        messageId: { type: DataTypes.STRING(21), allowNull: false },
        channelId: { type: DataTypes.STRING(21), allowNull: false },
        emoji: { type: DataTypes.STRING(100), allowNull: false },
        emojiId: { type: DataTypes.STRING(21), allowNull: true },
        roleId: { type: DataTypes.STRING(21), allowNull: false },
        roleName: { type: DataTypes.STRING(100), allowNull: true },
        mode: { type: DataTypes.STRING(8), allowNull: false, defaultValue: 'normal' },
        isActive: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        inactiveReason: { type: DataTypes.STRING(300), allowNull: true },
        createdBy: { type: DataTypes.STRING(21), allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      },
      { sequelize, tableName: 'reaction_roles', timestamps: false },
    );
  }
}

/** One role given or taken through a reaction role (or the attempt that failed), for the usage stats. */
export class ReactionRoleEvent extends Model<InferAttributes<ReactionRoleEvent>, InferCreationAttributes<ReactionRoleEvent>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare reactionRoleId: number | null;
  declare messageId: string;
  declare userId: string;
  declare roleId: string;
  declare action: 'add' | 'remove';
  declare outcome: 'ok' | 'failed';
  declare reason: string | null;
  declare createdAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        reactionRoleId: { type: DataTypes.INTEGER, allowNull: true },
        messageId: { type: DataTypes.STRING(21), allowNull: false },
        userId: { type: DataTypes.STRING(21), allowNull: false },
        roleId: { type: DataTypes.STRING(21), allowNull: false },
        action: { type: DataTypes.STRING(8), allowNull: false },
        outcome: { type: DataTypes.STRING(8), allowNull: false },
        reason: { type: DataTypes.STRING(300), allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'reaction_role_events', timestamps: false },
    );
  }
}

/** One welcome the bot sent (or failed to): the channel post and the join DM. */
export class WelcomeLog extends Model<InferAttributes<WelcomeLog>, InferCreationAttributes<WelcomeLog>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare userId: string;
  declare username: string;
  /** 'join' (seen live), 'catchup' (joined while the bot was offline), 'test' (Test Message). */
  declare source: 'join' | 'catchup' | 'test';
  declare channelId: string | null;
  declare messageId: string | null;
  /** The channel post: pending (claimed, being sent), sent, or failed (with `error`). */
  declare status: 'pending' | 'sent' | 'failed';
  declare error: string | null;
  /** The join DM: sent, closed (the member does not accept DMs), failed, or off. */
  declare dm: 'sent' | 'closed' | 'failed' | 'off';
  /** When the member joined (one welcome per join); null for test messages. */
  declare memberJoinedAt: Date | null;
  declare createdAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        userId: { type: DataTypes.STRING(21), allowNull: false },
        username: { type: DataTypes.STRING(100), allowNull: false },
        source: { type: DataTypes.STRING(8), allowNull: false },
        channelId: { type: DataTypes.STRING(21), allowNull: true },
        messageId: { type: DataTypes.STRING(21), allowNull: true },
        status: { type: DataTypes.STRING(8), allowNull: false },
        error: { type: DataTypes.STRING(500), allowNull: true },
        dm: { type: DataTypes.STRING(8), allowNull: false },
        memberJoinedAt: { type: DataTypes.DATE, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'welcome_log', timestamps: false },
    );
  }
}

/** What the bot keeps about a guild between runs (the rules message it posted, when it last saw the guild), by key. */
export class GuildState extends Model<InferAttributes<GuildState>, InferCreationAttributes<GuildState>> {
  declare guildId: string;
  declare key: string;
  declare value: unknown;
  declare updatedAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        guildId: { type: DataTypes.STRING(21), primaryKey: true },
        key: { type: DataTypes.STRING(64), primaryKey: true },
        value: { type: DataTypes.JSON, allowNull: false },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'guild_state', timestamps: false },
    );
  }
}

/** An announcement posted (or to be posted) by the bot. */
export class Announcement extends Model<InferAttributes<Announcement>, InferCreationAttributes<Announcement>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare channelId: string;
  declare title: string;
  declare message: string;
  declare priority: string;
  declare scheduleTime: Date | null;
  /** Scheduled ones are claimed (a lease in `claimedUntil`) and sent by one process; see src/shared/announcements. */
  declare status: AnnouncementStatusName;
  declare sentAt: Date | null;
  declare messageId: string | null;
  declare error: string | null;
  declare createdById: string | null;
  declare createdByName: string | null;
  /** The role pinged with it, if any (only that role: allowed mentions). */
  declare mentionRoleId: string | null;
  /** Sent after its time because the bot was down (under an hour late). */
  declare late: CreationOptional<boolean>;
  declare attempts: CreationOptional<number>;
  /** Until when a process holds the right to send it. */
  declare claimedUntil: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
  /** Counts edits (not purchases or sends): a save based on an older version is recognised. */
  declare version: CreationOptional<number>;
  /** A recurring one's rule as JSON (frequency, time, weekdays, dayOfMonth); null for a one-off (migration 017). */
  declare recurrence: CreationOptional<string | null>;
  /** The rule's IANA time zone. */
  declare timeZone: CreationOptional<string | null>;
  /** The last local day (YYYY-MM-DD) a recurring one may go out. */
  declare untilDay: CreationOptional<string | null>;
  /** How many times a recurring one goes out at most. */
  declare maxSends: CreationOptional<number | null>;
  /** How many times it went out. */
  declare sendCount: CreationOptional<number>;
  /** When its latest message was last edited in place. */
  declare editedAt: CreationOptional<Date | null>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        channelId: { type: DataTypes.STRING(21), allowNull: false },
        title: { type: DataTypes.STRING(256), allowNull: false },
        message: { type: DataTypes.TEXT, allowNull: false },
        priority: { type: DataTypes.STRING(8), allowNull: false, defaultValue: 'normal' },
        scheduleTime: { type: DataTypes.DATE, allowNull: true },
        status: { type: DataTypes.STRING(16), allowNull: false },
        sentAt: { type: DataTypes.DATE, allowNull: true },
        messageId: { type: DataTypes.STRING(21), allowNull: true },
        error: { type: DataTypes.TEXT, allowNull: true },
        createdById: { type: DataTypes.STRING(21), allowNull: true },
        createdByName: { type: DataTypes.STRING(100), allowNull: true },
        mentionRoleId: { type: DataTypes.STRING(21), allowNull: true },
        late: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        claimedUntil: { type: DataTypes.DATE, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
        updatedAt: { type: DataTypes.DATE, allowNull: false },
        version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        recurrence: { type: DataTypes.TEXT, allowNull: true },
        timeZone: { type: DataTypes.STRING(64), allowNull: true },
        untilDay: { type: DataTypes.STRING(10), allowNull: true },
        maxSends: { type: DataTypes.INTEGER, allowNull: true },
        sendCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        editedAt: { type: DataTypes.DATE, allowNull: true },
      },
      { sequelize, tableName: 'announcements', timestamps: false },
    );
  }
}

/** One moderation case: an action taken through the bot, in Discord's own UI, or automatically. */
export class ModerationLog extends Model<InferAttributes<ModerationLog>, InferCreationAttributes<ModerationLog>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  /** Numbered per guild from 1. */
  declare caseNumber: number;
  declare moderatorId: string;
  declare moderatorName: string | null;
  declare targetId: string;
  declare targetName: string | null;
  declare action: string;
  declare reason: string | null;
  declare details: Record<string, unknown> | null;
  /** dashboard, command, discord or automatic. */
  declare source: string;
  /** One of the spec's durations (timeouts, temporary bans). */
  declare duration: string | null;
  declare expiresAt: Date | null;
  /** When a temporary ban was lifted. */
  declare liftedAt: Date | null;
  /** The lease of the process lifting a temporary ban. */
  declare claimedUntil: Date | null;
  /** Whether the DM reached the member (null: not tried). */
  declare dmDelivered: boolean | null;
  /** The audit-log entry of an action done in Discord's own UI. */
  declare auditEntryId: string | null;
  /** A warning pardoned: it no longer counts toward the warning ladder. */
  declare pardonedAt: CreationOptional<Date | null>;
  /** The number of the pardon's own case. */
  declare pardonCaseNumber: CreationOptional<number | null>;
  /** The case's edits, oldest first (see src/shared/moderation-cases.ts CaseEdit). */
  declare edits: CreationOptional<unknown[] | null>;
  declare createdAt: CreationOptional<Date>;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        caseNumber: { type: DataTypes.INTEGER, allowNull: false },
        moderatorId: { type: DataTypes.STRING(21), allowNull: false },
        moderatorName: { type: DataTypes.STRING(100), allowNull: true },
        targetId: { type: DataTypes.STRING(21), allowNull: false },
        targetName: { type: DataTypes.STRING(100), allowNull: true },
        action: { type: DataTypes.STRING(16), allowNull: false },
        reason: { type: DataTypes.TEXT, allowNull: true },
        details: { type: DataTypes.JSON, allowNull: true },
        source: { type: DataTypes.STRING(16), allowNull: false },
        duration: { type: DataTypes.STRING(4), allowNull: true },
        expiresAt: { type: DataTypes.DATE, allowNull: true },
        liftedAt: { type: DataTypes.DATE, allowNull: true },
        claimedUntil: { type: DataTypes.DATE, allowNull: true },
        dmDelivered: { type: DataTypes.BOOLEAN, allowNull: true },
        auditEntryId: { type: DataTypes.STRING(21), allowNull: true },
        pardonedAt: { type: DataTypes.DATE, allowNull: true },
        pardonCaseNumber: { type: DataTypes.INTEGER, allowNull: true },
        edits: { type: DataTypes.JSON, allowNull: true },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'moderation_logs', updatedAt: false },
    );
  }
}

/** A member's report of another member or of one message, and what became of it. */
export class ModerationReport extends Model<InferAttributes<ModerationReport>, InferCreationAttributes<ModerationReport>> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare reporterId: string;
  declare reporterName: string | null;
  declare targetId: string;
  declare targetName: string | null;
  declare reason: string;
  declare channelId: string | null;
  declare messageId: string | null;
  /** The message's text when it was reported. */
  declare content: string | null;
  /** open, resolved or dismissed. */
  declare status: string;
  declare caseId: number | null;
  declare resolvedById: string | null;
  declare resolvedAt: Date | null;
  declare createdAt: Date;

  /** Binds the model to a store. */
  static initModel(sequelize: Sequelize): void {
    this.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        guildId: { type: DataTypes.STRING(21), allowNull: false },
        reporterId: { type: DataTypes.STRING(21), allowNull: false },
        reporterName: { type: DataTypes.STRING(100), allowNull: true },
        targetId: { type: DataTypes.STRING(21), allowNull: false },
        targetName: { type: DataTypes.STRING(100), allowNull: true },
        reason: { type: DataTypes.TEXT, allowNull: false },
        channelId: { type: DataTypes.STRING(21), allowNull: true },
        messageId: { type: DataTypes.STRING(21), allowNull: true },
        content: { type: DataTypes.TEXT, allowNull: true },
        status: { type: DataTypes.STRING(12), allowNull: false },
        caseId: { type: DataTypes.INTEGER, allowNull: true },
        resolvedById: { type: DataTypes.STRING(21), allowNull: true },
        resolvedAt: { type: DataTypes.DATE, allowNull: true },
        createdAt: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'moderation_reports', timestamps: false },
    );
  }
}
