/** The most of a title a new project gets from its prompt. */
const PROJECT_TITLE_MAX = 60;

/**
 * A title for a project a run creates, from its prompt: the first line, spaces collapsed, cut at a
 * word boundary with an ellipsis past PROJECT_TITLE_MAX characters.
 */
export function projectTitleOf(prompt: string): string {
  const line = (prompt.split(/\r?\n/).find((l) => l.trim() !== '') ?? '').replace(/\s+/g, ' ').trim();
  if (line.length <= PROJECT_TITLE_MAX) return line || 'gflow';
  const cut = line.slice(0, PROJECT_TITLE_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > PROJECT_TITLE_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:–-]+$/, '')}…`;
}
