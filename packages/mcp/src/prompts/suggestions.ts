/** Completion values offered for prompt arguments (prefix match, case-insensitive). */
export const CAMERA_SUGGESTIONS = [
  'close-up',
  'extreme close-up',
  'medium shot',
  'wide shot',
  'aerial drone shot',
  'tracking shot',
  'dolly zoom',
  'low-angle shot',
  'high-angle shot',
  'over-the-shoulder shot',
  'handheld',
  'slow pan',
  'static tripod shot',
  'macro lens',
  '35mm film',
] as const;

export const LIGHTING_SUGGESTIONS = [
  'golden hour',
  'blue hour',
  'soft diffused daylight',
  'harsh midday sun',
  'overcast',
  'neon',
  'candlelight',
  'studio softbox',
  'rim lighting',
  'backlit silhouette',
  'volumetric fog',
  'moonlight',
  'chiaroscuro',
] as const;

export const SETTING_SUGGESTIONS = [
  'a busy city street at night',
  'a misty forest',
  'a desert at dawn',
  'a cozy kitchen',
  'a futuristic laboratory',
  'a beach at sunset',
  'a snowy mountain pass',
  'an empty theatre stage',
] as const;

export const GENDER_SUGGESTIONS = ['neutral', 'female', 'male', 'non-binary'] as const;
