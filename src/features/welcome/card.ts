// The welcome card: a PNG with the member's avatar, name and member number, drawn with
// @napi-rs/canvas (Skia, prebuilt per platform in npm packages, no system libraries). Text is drawn
// with the system's fonts (the Docker image installs DejaVu).
import { createCanvas, loadImage, type Image, type SKRSContext2D } from '@napi-rs/canvas';
import { CARD_HEIGHT, CARD_WIDTH } from '../../shared/welcome-card';

/** What a card shows. */
export interface CardContent {
  /** The avatar's bytes (PNG, JPEG, WebP, GIF or SVG), or null for the default drawing. */
  avatar: Buffer | null;
  /** The title with its placeholders filled in. */
  title: string;
  username: string;
  memberNumber: number;
  background: string;
  accent: string;
}

const FONT = '"DejaVu Sans", "Liberation Sans", sans-serif';
const AVATAR_SIZE = 220;
const AVATAR_X = 70;
const AVATAR_Y = (CARD_HEIGHT - AVATAR_SIZE) / 2;
const TEXT_X = AVATAR_X + AVATAR_SIZE + 60;
const TEXT_WIDTH = CARD_WIDTH - TEXT_X - 50;

/** Text cut with an ellipsis to fit `width` at the context's font. */
function fitted(ctx: SKRSContext2D, value: string, width: number): string {
  if (ctx.measureText(value).width <= width) return value;
  let cut = value;
  while (cut.length > 1 && ctx.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** The avatar as an image, or null when its bytes are no image the library reads. */
async function avatarImage(bytes: Buffer | null): Promise<Image | null> {
  if (!bytes) return null;
  try {
    const image = await loadImage(bytes);
    return image.width > 0 && image.height > 0 ? image : null;
  } catch {
    return null;
  }
}

/** The default avatar: the accent colour with the name's first letter. */
function drawDefaultAvatar(ctx: SKRSContext2D, content: CardContent): void {
  ctx.fillStyle = content.accent;
  ctx.fillRect(AVATAR_X, AVATAR_Y, AVATAR_SIZE, AVATAR_SIZE);
  ctx.fillStyle = '#ffffff';
  ctx.font = `bold 110px ${FONT}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText((content.username.trim()[0] ?? '?').toUpperCase(), AVATAR_X + AVATAR_SIZE / 2, AVATAR_Y + AVATAR_SIZE / 2 + 6);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
}

/** Draws the card; an avatar that cannot be read is drawn as the default one. */
export async function drawWelcomeCard(content: CardContent): Promise<Buffer> {
  const canvas = createCanvas(CARD_WIDTH, CARD_HEIGHT);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = content.background;
  ctx.fillRect(0, 0, CARD_WIDTH, CARD_HEIGHT);
  ctx.fillStyle = content.accent;
  ctx.fillRect(0, CARD_HEIGHT - 14, CARD_WIDTH, 14);

  const centre = { x: AVATAR_X + AVATAR_SIZE / 2, y: AVATAR_Y + AVATAR_SIZE / 2 };
  ctx.beginPath();
  ctx.arc(centre.x, centre.y, AVATAR_SIZE / 2 + 8, 0, Math.PI * 2);
  ctx.fillStyle = content.accent;
  ctx.fill();
  ctx.save();
  ctx.beginPath();
  ctx.arc(centre.x, centre.y, AVATAR_SIZE / 2, 0, Math.PI * 2);
  ctx.clip();
  const avatar = await avatarImage(content.avatar);
  if (avatar) ctx.drawImage(avatar, AVATAR_X, AVATAR_Y, AVATAR_SIZE, AVATAR_SIZE);
  else drawDefaultAvatar(ctx, content);
  ctx.restore();

  ctx.fillStyle = '#ffffff';
  // A long title is drawn smaller first, cut only below 30 pixels.
  let size = 46;
  ctx.font = `bold ${size}px ${FONT}`;
  while (size > 30 && ctx.measureText(content.title).width > TEXT_WIDTH) {
    size -= 2;
    ctx.font = `bold ${size}px ${FONT}`;
  }
  ctx.fillText(fitted(ctx, content.title, TEXT_WIDTH), TEXT_X, 150);
  ctx.font = `36px ${FONT}`;
  ctx.fillStyle = content.accent;
  ctx.fillText(fitted(ctx, content.username, TEXT_WIDTH), TEXT_X, 210);
  ctx.font = `28px ${FONT}`;
  ctx.fillStyle = '#b9bbbe';
  ctx.fillText(`Member #${content.memberNumber.toLocaleString('en-US')}`, TEXT_X, 260);
  return canvas.encode('png');
}
