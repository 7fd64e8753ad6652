// What Discord takes as one unicode emoji: the sandbox's reactions and the dashboard's emoji field
// hold to the same rule.

/** An emoji's picture: pictographic, or shown as emoji by default. */
const PICTOGRAPH = String.raw`(?:\p{Extended_Pictographic}|\p{Emoji_Presentation})`;

/** One unicode emoji (with modifiers, variation selectors, ZWJ sequences, flags or keycaps), nothing else. */
export const UNICODE_EMOJI = new RegExp(
  [
    '^(?:',
    String.raw`\p{Regional_Indicator}{2}`,
    String.raw`|[#*0-9]\uFE0F?\u20E3`,
    String.raw`|${PICTOGRAPH}(?:\p{Emoji_Modifier}|\uFE0F|\u200D${PICTOGRAPH})*`,
    ')$',
  ].join(''),
  'u',
);
