// What a new channel message is made of, as the stores, the REST routes and the control API give it.
import type { APIEmbed, MessageType } from 'discord-api-types/v10';
import type { AttachmentRecord } from './attachments';
import type { AllowedMentions } from './mentions';
import type { MessageRecord } from './types';

/** What a new message is made of; only `authorId` and some content are required. */
export interface NewMessageInput {
  authorId: string;
  content?: string;
  embeds?: APIEmbed[];
  components?: MessageRecord['components'];
  type?: MessageType;
  flags?: number;
  webhookId?: string | null;
  applicationId?: string | null;
  interactionMetadata?: MessageRecord['interactionMetadata'];
  /** Back-dated history (seed): no dispatch, given time. */
  timestamp?: number;
  /** A back-dated message's own id (the demo history makes them from their time: historySnowflake). */
  id?: string;
  /** Ephemeral replies: kept by id but not listed in the channel nor dispatched. */
  ephemeral?: boolean;
  /** Who may be pinged (absent: everything mentioned, within the author's permissions). */
  allowedMentions?: AllowedMentions | null;
  /** The message this replies to (checked by the caller to be in the channel). */
  replyTo?: MessageRecord | null;
  /** A message a system message refers to without replying (the pinned one of a type 6). */
  referenceId?: string;
  /** A webhook's message: the name and avatar it is shown with. */
  webhookAuthor?: MessageRecord['webhookAuthor'];
  /** The author's nonce (an integer or up to 25 characters), remembered for enforce_nonce. */
  nonce?: string | number | null;
  /** Files a member attached (kept in the World's AttachmentStore; they leave it with the message). */
  attachments?: AttachmentRecord[];
}
