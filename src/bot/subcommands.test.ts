import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApplicationCommandOptionType } from 'discord.js';
import { commandLeaves, subcommandOf, type Command } from './command';
import { slashJSON } from './slash';

const parent: Command = {
  name: 'case',
  description: 'Cases',
  permission: 8n,
  ephemeral: true,
  subcommands: [
    {
      name: 'show',
      description: 'Show one',
      options: [{ type: 'integer', name: 'number', description: 'n', required: true, min: 1 }],
      run: async () => 'shown',
    },
    { name: 'wipe', description: 'Wipe', permission: 4n, ephemeral: false, run: async () => 'wiped' },
  ],
  run: async () => 'which one?',
};

test('a subcommand runs as a command of its own, with the parent’s permission and privacy unless it sets its own', () => {
  const show = subcommandOf(parent, 'show');
  assert.deepEqual([show?.name, show?.permission, show?.ephemeral, show?.subcommands], ['case show', 8n, true, undefined]);
  const wipe = subcommandOf(parent, 'wipe');
  assert.deepEqual([wipe?.permission, wipe?.ephemeral], [4n, false]);
  assert.equal(subcommandOf(parent, 'nope'), undefined);
  assert.deepEqual(
    commandLeaves(parent).map((leaf) => leaf.name),
    ['case show', 'case wipe'],
  );
});

test('subcommands are registered as Discord subcommands holding their options', () => {
  const json = slashJSON(parent);
  assert.deepEqual(
    json.options?.map((option) => [option.type, option.name]),
    [
      [ApplicationCommandOptionType.Subcommand, 'show'],
      [ApplicationCommandOptionType.Subcommand, 'wipe'],
    ],
  );
  const show = json.options?.[0];
  assert.ok(show && 'options' in show);
  assert.deepEqual(
    show.options?.map((option) => [option.name, option.required]),
    [['number', true]],
  );
});
