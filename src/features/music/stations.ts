// Internet radio stations a server saves by name (Icecast/Shoutcast streams, or the M3U/PLS
// playlists stations hand out). Their addresses go through the same guard as webhooks: a public
// address only, unless the operator allows private ones (ALLOW_PRIVATE_WEBHOOKS). YouTube and
// Spotify links are refused with the reason in words.
import { UniqueConstraintError } from 'sequelize';
import { Conflict, InvalidInput, NotFound } from '../../core/errors';
import type { Actor } from '../../core/actor';
import type { Services } from '../../core/services';
import { checkWebhookTarget, WebhookTargetRefused } from '../../core/webhook-target';
import type { MusicStation } from '../../db/models/music';
import { saveVersioned } from '../../db/versioned';
import { MAX_STATIONS, MUSIC_MESSAGES, refusedLink, type Station } from '../../shared/music';

const stations = (services: Services, guildId: string) => services.store.guild(guildId).MusicStation;

/** A station as the dashboard lists it. */
export function viewStation(row: MusicStation): Station {
  return { id: row.id, name: row.name, url: row.url, createdAt: row.createdAt.toISOString(), version: row.version };
}

/** The key a station's name is unique by: lower-cased. */
const nameKey = (name: string) => name.toLowerCase();

/**
 * Refuses an address that will not be played: a YouTube or Spotify link (the reason in words), or a
 * host that is not public (loopback, private, link-local...) unless the operator allows it.
 */
export async function checkStreamUrl(services: Services, url: string, field = 'url'): Promise<void> {
  const refused = refusedLink(url);
  if (refused) throw InvalidInput.field(field, refused, refused);
  try {
    await checkWebhookTarget(new URL(url), services.config.allowPrivateWebhooks, 'stream');
  } catch (error) {
    if (error instanceof WebhookTargetRefused) throw InvalidInput.field(field, error.message, error.message);
    throw error;
  }
}

/** Every station of the guild, by name. */
export async function listStations(services: Services, guildId: string): Promise<Station[]> {
  const rows = await stations(services, guildId).findAll({ order: [['nameKey', 'ASC']] });
  return rows.map(viewStation);
}

/** A taken name as the Conflict the page shows on the name field. */
function nameTaken(name: string): Conflict {
  return new Conflict(MUSIC_MESSAGES.stationNameTaken(name), 'name');
}

/** Saves a station by name (unique in the server whatever its case). */
export async function addStation(services: Services, guildId: string, input: { name: string; url: string }): Promise<Station> {
  await checkStreamUrl(services, input.url);
  const scope = stations(services, guildId);
  if ((await scope.count()) >= MAX_STATIONS) throw new Conflict(MUSIC_MESSAGES.tooManyStations);
  if (await scope.findOne({ where: { nameKey: nameKey(input.name) } })) throw nameTaken(input.name);
  const now = services.clock.now();
  try {
    return viewStation(await scope.create({ name: input.name, nameKey: nameKey(input.name), url: input.url, createdAt: now, updatedAt: now }));
  } catch (error) {
    // Two saves of the same name at once: the unique index keeps one.
    if (error instanceof UniqueConstraintError) throw nameTaken(input.name);
    throw error;
  }
}

/** A station of this guild, or NotFound. */
async function findStation(services: Services, guildId: string, id: number): Promise<MusicStation> {
  const row = await stations(services, guildId).findByPk(id);
  if (!row) throw new NotFound(MUSIC_MESSAGES.stationMissing);
  return row;
}

/** Renames a station or changes its address, over the version the page loaded. */
export async function editStation(
  services: Services,
  guildId: string,
  id: number,
  patch: { name?: string | undefined; url?: string | undefined },
  edit: { actor: Actor; baseVersion?: number | undefined },
): Promise<Station> {
  const row = await findStation(services, guildId, id);
  const values: Record<string, unknown> = {};
  if (patch.url !== undefined && patch.url !== row.url) {
    await checkStreamUrl(services, patch.url);
    values.url = patch.url;
  }
  if (patch.name !== undefined && patch.name !== row.name) {
    const other = await stations(services, guildId).findOne({ where: { nameKey: nameKey(patch.name) } });
    if (other && other.id !== row.id) throw nameTaken(patch.name);
    values.name = patch.name;
    values.nameKey = nameKey(patch.name);
  }
  try {
    const saved = await saveVersioned(services.store, {
      entity: 'musicStation',
      row,
      values,
      baseVersion: edit.baseVersion,
      actor: edit.actor,
      now: () => services.clock.now(),
      alongside: { updatedAt: services.clock.now() },
    });
    return viewStation(saved);
  } catch (error) {
    if (error instanceof UniqueConstraintError && patch.name) throw nameTaken(patch.name);
    throw error;
  }
}

/** Removes a saved station. */
export async function removeStation(services: Services, guildId: string, id: number): Promise<void> {
  if ((await stations(services, guildId).destroy({ where: { id } })) === 0) throw new NotFound(MUSIC_MESSAGES.stationMissing);
}
