// Interactions beyond slash commands: a member clicks a button or chooses in a select menu (type 3),
// the bot updates the message (type 7) or defers and edits it (type 6); modals (type 9, then a
// submit of type 5); autocomplete (type 4, answered with type 8); and Discord's 3-second deadline.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ActionRowBuilder,
  ApplicationCommandOptionType,
  ButtonBuilder,
  ButtonStyle,
  DiscordAPIError,
  Events,
  ModalBuilder,
  Routes,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
  type Interaction,
} from 'discord.js';
import { control, startBotHarness, type BotHarness } from './helpers';

interface Final {
  content: string;
  updated?: { messageId: string; content: string };
  modal?: { customId: string; title: string };
  choices?: { name: string; value: string }[];
}

describe('components, modals, autocomplete and the deadline', () => {
  let h: BotHarness;
  let lateError: unknown = null;
  let lateDone: Promise<void> = Promise.resolve();
  /** The codes of the refused update on a slash command and of the reply the bot retried with. */
  let wrongType: Promise<[unknown, unknown]> = Promise.resolve([null, null]);
  const topics = ['gaming', 'garden', 'music', 'movies'];

  before(async () => {
    h = await startBotHarness({ memberCount: 20 });
    await h.client.application?.commands.set(
      [
        { name: 'vote', description: 'Start a vote' },
        { name: 'feedback', description: 'Send feedback' },
        {
          name: 'topic',
          description: 'Pick a topic',
          options: [{ name: 'name', description: 'topic', type: ApplicationCommandOptionType.String, autocomplete: true, required: true }],
        },
        { name: 'slowpoke', description: 'Answers too late' },
        { name: 'wrongtype', description: 'Answers with an update' },
      ],
      h.sandbox.world.demo.guildId,
    );
    h.client.on(Events.InteractionCreate, (interaction) => void handle(interaction));
  });
  after(async () => {
    await lateDone;
    await h.close();
  });

  async function handle(interaction: Interaction): Promise<void> {
    if (interaction.isAutocomplete()) {
      const typed = interaction.options.getFocused();
      await interaction.respond(topics.filter((topic) => topic.startsWith(typed)).map((topic) => ({ name: topic, value: topic })));
      return;
    }
    if (interaction.isButton()) {
      await interaction.update({ content: `Yes, said ${interaction.user.username}`, components: [] });
      return;
    }
    if (interaction.isStringSelectMenu()) {
      await interaction.deferUpdate();
      await interaction.editReply({ content: `Chose ${interaction.values.join(', ')}` });
      return;
    }
    if (interaction.isModalSubmit()) {
      await interaction.reply({ content: `Thanks: ${interaction.fields.getTextInputValue('text')}` });
      return;
    }
    if (!interaction.isChatInputCommand()) return;
    switch (interaction.commandName) {
      case 'vote':
        await interaction.reply({
          content: 'Vote!',
          components: [
            new ActionRowBuilder<ButtonBuilder>().addComponents(new ButtonBuilder().setCustomId('yes').setLabel('Yes').setStyle(ButtonStyle.Success)),
            new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
              new StringSelectMenuBuilder()
                .setCustomId('pick')
                .setMinValues(1)
                .setMaxValues(2)
                .addOptions({ label: 'A', value: 'a' }, { label: 'B', value: 'b' }, { label: 'C', value: 'c' }),
            ),
          ],
        });
        return;
      case 'feedback':
        await interaction.showModal(
          new ModalBuilder()
            .setCustomId('feedback-form')
            .setTitle('Feedback')
            .addComponents(
              new ActionRowBuilder<TextInputBuilder>().addComponents(
                new TextInputBuilder().setCustomId('text').setLabel('Your feedback').setStyle(TextInputStyle.Paragraph).setMaxLength(100),
              ),
            ),
        );
        return;
      case 'topic':
        await interaction.reply(`Topic: ${interaction.options.getString('name', true)}`);
        return;
      case 'slowpoke':
        lateDone = new Promise((resolve) => {
          setTimeout(() => {
            interaction
              .reply('too late')
              .catch((error: unknown) => (lateError = error))
              .finally(() => resolve());
          }, 3300);
        });
        return;
      case 'wrongtype':
        // discord.js offers no update() on a slash command, so the raw callback is sent; the refused
        // response still counts, so the reply the bot retries with is refused as already acknowledged.
        wrongType = h.client.rest
          .post(Routes.interactionCallback(interaction.id, interaction.token), { body: { type: 7, data: { content: 'nope' } }, auth: false })
          .then(
            () => [null, null],
            async (error: unknown) => [
              (error as DiscordAPIError).code,
              await interaction.reply('second try').then(
                () => null,
                (retry: DiscordAPIError) => retry.code,
              ),
            ],
          );
        await wrongType;
        return;
    }
  }

  const where = () => ({ guildId: h.sandbox.world.demo.guildId, channelId: h.sandbox.world.demo.channels.general, userId: h.sandbox.world.demo.plainMemberId });

  it('a button click (type 3) is answered by updating the message (type 7)', async () => {
    const vote = await control<{ messageId: string }>(h.sandbox, 'POST', '/interactions', { ...where(), name: 'vote' });
    assert.equal(vote.status, 200);
    const click = await control<Final>(h.sandbox, 'POST', '/interactions/component', {
      channelId: where().channelId,
      userId: where().userId,
      messageId: vote.body.messageId,
      customId: 'yes',
    });
    assert.equal(click.status, 200);
    assert.equal(click.body.updated?.content, 'Yes, said plain_pat');
    assert.equal(h.sandbox.world.messages.get(vote.body.messageId)?.components.length, 0, 'the buttons are gone');
  });

  it('a select menu choice is checked against its options, deferred (type 6) and then the message edited', async () => {
    const vote = await control<{ messageId: string }>(h.sandbox, 'POST', '/interactions', { ...where(), name: 'vote' });
    const base = { channelId: where().channelId, userId: where().userId, messageId: vote.body.messageId, customId: 'pick' };
    assert.equal((await control(h.sandbox, 'POST', '/interactions/component', { ...base, values: ['z'] })).status, 400);
    assert.equal((await control(h.sandbox, 'POST', '/interactions/component', { ...base, values: ['a', 'b', 'c'] })).status, 400);
    assert.equal((await control(h.sandbox, 'POST', '/interactions/component', { ...base, customId: 'nothing' })).status, 404);
    const chose = await control<Final>(h.sandbox, 'POST', '/interactions/component', { ...base, values: ['a', 'c'] });
    assert.equal(chose.status, 200);
    assert.equal(chose.body.updated?.content, 'Chose a, c');
  });

  it('a modal (type 9) is shown, and its submit (type 5) carries what the member typed', async () => {
    const shown = await control<Final>(h.sandbox, 'POST', '/interactions', { ...where(), name: 'feedback' });
    assert.deepEqual([shown.body.modal?.customId, shown.body.modal?.title], ['feedback-form', 'Feedback']);
    const tooLong = await control(h.sandbox, 'POST', '/interactions/modal', {
      channelId: where().channelId,
      userId: where().userId,
      customId: 'feedback-form',
      fields: { text: 'x'.repeat(101) },
    });
    assert.equal(tooLong.status, 400);
    const submitted = await control<Final>(h.sandbox, 'POST', '/interactions/modal', {
      channelId: where().channelId,
      userId: where().userId,
      customId: 'feedback-form',
      fields: { text: 'Great bot' },
    });
    assert.equal(submitted.body.content, 'Thanks: Great bot');
    const again = await control(h.sandbox, 'POST', '/interactions/modal', {
      channelId: where().channelId,
      userId: where().userId,
      customId: 'feedback-form',
      fields: { text: 'twice' },
    });
    assert.equal(again.status, 404, 'a modal is submitted once');
  });

  it('autocomplete (type 4) is answered with choices (type 8)', async () => {
    const typed = await control<Final>(h.sandbox, 'POST', '/interactions/autocomplete', {
      ...where(),
      name: 'topic',
      options: { name: 'ga' },
      focused: 'name',
    });
    assert.equal(typed.status, 200);
    assert.deepEqual(
      typed.body.choices?.map((choice) => choice.value),
      ['gaming', 'garden'],
    );
  });

  it('a first response after 3 seconds is too late: the member sees no answer (504) and the bot gets 10062', async () => {
    const started = Date.now();
    const response = await control<{ error: string }>(h.sandbox, 'POST', '/interactions', { ...where(), name: 'slowpoke' });
    assert.equal(response.status, 504);
    assert.equal(response.body.error, 'no_response');
    assert.ok(Date.now() - started < 4500);
    await lateDone;
    assert.ok(lateError instanceof DiscordAPIError && lateError.code === 10062, `the late reply failed with ${String(lateError)}`);
  });

  it('a response type the interaction does not take is refused, and that refusal was the response', async () => {
    const response = await control<{ error: string }>(h.sandbox, 'POST', '/interactions', { ...where(), name: 'wrongtype' });
    assert.equal(response.status, 504);
    assert.equal(response.body.error, 'no_response');
    assert.deepEqual(await wrongType, [50035, 40060]);
  });
});
