/**
 * Flow's preset character voices (the Gemini TTS voice set; flow-wire §5 names
 * aoede, charon, kore, puck and zephyr among them). Descriptions are the
 * one-word character of each voice; Flow's sample URLs are not known to us.
 */
export interface CharacterVoice {
  readonly name: string;
  readonly description: string;
  readonly sample_url: string | null;
}

const VOICES: ReadonlyArray<readonly [string, string]> = [
  ['zephyr', 'Bright'],
  ['puck', 'Upbeat'],
  ['charon', 'Informative'],
  ['kore', 'Firm'],
  ['fenrir', 'Excitable'],
  ['leda', 'Youthful'],
  ['orus', 'Firm'],
  ['aoede', 'Breezy'],
  ['callirrhoe', 'Easy-going'],
  ['autonoe', 'Bright'],
  ['enceladus', 'Breathy'],
  ['iapetus', 'Clear'],
  ['umbriel', 'Easy-going'],
  ['algieba', 'Smooth'],
  ['despina', 'Smooth'],
  ['erinome', 'Clear'],
  ['algenib', 'Gravelly'],
  ['rasalgethi', 'Informative'],
  ['laomedeia', 'Upbeat'],
  ['achernar', 'Soft'],
  ['alnilam', 'Firm'],
  ['schedar', 'Even'],
  ['gacrux', 'Mature'],
  ['pulcherrima', 'Forward'],
  ['achird', 'Friendly'],
  ['zubenelgenubi', 'Casual'],
  ['vindemiatrix', 'Gentle'],
  ['sadachbia', 'Lively'],
  ['sadaltager', 'Knowledgeable'],
  ['sulafat', 'Warm'],
];

export const CHARACTER_VOICES: readonly CharacterVoice[] = VOICES.map(([name, description]) => ({
  name,
  description,
  sample_url: null,
}));
