import { MessageFlags, SlashCommandBuilder } from 'discord.js';
import type { BotCommand } from '../commands';

/** /ping: shows that the bot is alive and its gateway latency. */
export const pingCommand: BotCommand = {
  data: new SlashCommandBuilder().setName('ping').setDescription('Check that the bot is online and see its latency'),
  async execute(interaction) {
    const ping = interaction.client.ws.ping;
    await interaction.reply({
      content: `Pong! Gateway latency: ${ping >= 0 ? `${ping} ms` : 'measuring…'}`,
      flags: MessageFlags.Ephemeral,
    });
  },
};
