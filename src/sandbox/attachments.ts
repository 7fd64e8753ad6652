// Files members attach, kept in memory and served on the sandbox's own origin as Discord's CDN
// serves them (`/attachments/{channelId}/{attachmentId}/{filename}`): what a bot downloads from an
// attachment's `url`. The bytes go with their message (deleted, evicted, channel gone); a slash
// command's file belongs to no message and leaves when newer files push past the store's bound.
import type { Middleware } from 'koa';
import type { APIAttachment } from 'discord-api-types/v10';

/** The most bytes the files of one message (or one slash command) may add up to: Discord's 25 MiB without Nitro. */
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;
/** Files one message may carry, as on Discord. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;
/** Bytes the sandbox keeps across every file; the oldest go first past it, so a long test run cannot grow without end. */
export const ATTACHMENT_BYTES_KEPT = 256 * 1024 * 1024;

/** Content types Discord guesses from an extension when the uploader gives none (audio first: what the music feature takes). */
const TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  oga: 'audio/ogg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  webm: 'video/webm',
  mp4: 'video/mp4',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
};

/** A file as a member uploads it. */
export interface NewAttachment {
  filename: string;
  contentType?: string;
  bytes: Buffer;
}

/** A kept file: what its attachment object is made of, and its bytes. */
export interface AttachmentRecord {
  id: string;
  channelId: string;
  filename: string;
  /** The uploader's content type, or the one guessed from the extension; null when neither is known. */
  contentType: string | null;
  size: number;
  url: string;
  /** Sent with an interaction (a slash command's option), not posted in a message. */
  ephemeral: boolean;
  bytes: Buffer;
}

/** The attachment object Discord sends in messages and in an interaction's `resolved.attachments`. */
export function presentAttachment(file: AttachmentRecord): APIAttachment {
  return {
    id: file.id,
    filename: file.filename,
    size: file.size,
    url: file.url,
    proxy_url: file.url,
    ...(file.contentType ? { content_type: file.contentType } : {}),
    ...(file.ephemeral ? { ephemeral: true } : {}),
  };
}

/** The files in memory, by id, oldest first (Map order), bounded by `bytesKept`. */
export class AttachmentStore {
  private readonly files = new Map<string, AttachmentRecord>();
  private bytes = 0;

  /** Where the sandbox is served (`http://127.0.0.1:3001`), the origin of every file's URL: set once the server listens. */
  origin = '';

  /** `nextId` makes each file's snowflake; past `bytesKept` bytes the oldest files are dropped. */
  constructor(
    private readonly nextId: () => string,
    readonly bytesKept: number = ATTACHMENT_BYTES_KEPT,
  ) {}

  /** Bytes held across every file. */
  get size(): number {
    return this.bytes;
  }

  /** Keeps a file uploaded in a channel; the oldest files leave while the total is past the bound. */
  add(channelId: string, input: NewAttachment, ephemeral = false): AttachmentRecord {
    const id = this.nextId();
    const file: AttachmentRecord = {
      id,
      channelId,
      filename: input.filename,
      contentType: input.contentType ?? TYPES_BY_EXTENSION[input.filename.split('.').pop()?.toLowerCase() ?? ''] ?? null,
      size: input.bytes.length,
      url: `${this.origin}/attachments/${channelId}/${id}/${encodeURIComponent(input.filename)}`,
      ephemeral,
      bytes: input.bytes,
    };
    this.files.set(id, file);
    this.bytes += file.size;
    for (const [oldId] of this.files) {
      if (this.bytes <= this.bytesKept || oldId === id) break;
      this.drop([oldId]);
    }
    return file;
  }

  /** The file at `/attachments/{channelId}/{id}/{filename}`, if it is still kept under that path. */
  find(channelId: string, id: string, filename: string): AttachmentRecord | undefined {
    const file = this.files.get(id);
    return file && file.channelId === channelId && file.filename === filename ? file : undefined;
  }

  /** Forgets files (their message was deleted, or the command that carried them was refused). */
  drop(ids: Iterable<string>): void {
    for (const id of ids) {
      const file = this.files.get(id);
      if (!file) continue;
      this.files.delete(id);
      this.bytes -= file.size;
    }
  }
}

/** Serves `GET|HEAD /attachments/{channelId}/{attachmentId}/{filename}` from the store; 404 for any file it does not hold. */
export function attachmentsMiddleware(store: AttachmentStore): Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/attachments/')) return next();
    const [channelId = '', id = '', filename = '', ...rest] = ctx.path.slice('/attachments/'.length).split('/');
    let file: AttachmentRecord | undefined;
    try {
      file = rest.length === 0 && (ctx.method === 'GET' || ctx.method === 'HEAD') ? store.find(channelId, id, decodeURIComponent(filename)) : undefined;
    } catch {
      file = undefined;
    }
    if (!file) {
      ctx.status = 404;
      ctx.body = { message: '404: Not Found', code: 0 };
      return;
    }
    ctx.set('Content-Type', file.contentType ?? 'application/octet-stream');
    ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = file.bytes;
    ctx.length = file.size;
  };
}
