// What `gflow movie template` prints, in a module of its own: the command loads no schema to print it.

/** `movie template`: a commented storyboard to start from. */
export const STORYBOARD_TEMPLATE = `# A gflow storyboard: \`gflow movie plan story.yaml\` quotes it, \`gflow movie run story.yaml\` makes it.
title: The lighthouse keeper
aspect: 16:9            # 16:9 or 9:16, for scenes that set none
model: veo_fast         # Veo 3.1 model for scenes that set none (veo_lite, veo_fast, veo_quality)
# project: 3f0c2a1e-…   # an existing Flow project (needed for characters); else a new one, named after the title
overlap: 1              # seconds an extension repeats of the clip before it (cut when stitching)
scenes:
  - title: Dawn
    prompt: A lighthouse on a cliff at dawn, waves below, slow push in
    extend:             # extensions in a row, each from the last second of the clip before
      - the camera keeps moving toward the lamp room
  - title: The stairs
    start: previous     # image-to-video from the last frame of the scene before
    prompt: The keeper climbs the spiral stairs, lantern in hand
  # - title: The storm
  #   characters: [Mara] # reference-to-video with saved characters of the project (needs project:)
  #   prompt: Mara looks out at the storm from the lamp room
  #   duration: 8
  # - media_id: 0d6f…    # a finished video of this profile as a scene (stitched as it is; may be extended)
  #   extend: [the storm clears]
`;
