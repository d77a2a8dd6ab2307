/**
 * What a run's text says when it did not end completed: each step that may have spent credits
 * without a file to show for it (its Flow project and media ids, so the user can look before doing
 * anything), then how to continue it without paying twice. One home for the batch, the chain and
 * the resumed run.
 */

type Step = Readonly<Record<string, unknown>>;

export interface RunView {
  readonly status: string;
  readonly task_id?: string | null | undefined;
  readonly chain_id?: string | null | undefined;
  readonly flow_project_id?: string | null | undefined;
  readonly items?: readonly Step[] | undefined;
  readonly links?: readonly Step[] | undefined;
  readonly movie_id?: string | null | undefined;
  /** A movie's clips. */
  readonly steps?: readonly Step[] | undefined;
}

const SETTLED_WELL = new Set(['completed', 'done', 'estimated', 'planned']);

function errorOf(step: Step): Step | undefined {
  const error = step['error'];
  return error !== null && typeof error === 'object' ? (error as Step) : undefined;
}

/** A step stopped after its submit (indeterminate, a failure saying so, or one still marked running). */
function mayHaveSpent(step: Step): boolean {
  const status = String(step['status']);
  if (status === 'indeterminate' || status === 'running') return true;
  return status === 'failed' && errorOf(step)?.['may_have_spent'] === true;
}

function mediaOf(step: Step): string[] {
  const one = step['flow_media_id'];
  if (typeof one === 'string') return [one];
  const many = errorOf(step)?.['flow_media_ids'];
  return Array.isArray(many) ? many.filter((m): m is string => typeof m === 'string') : [];
}

function projectOf(step: Step, run: RunView): string | null {
  const own = errorOf(step)?.['flow_project_id'] ?? step['flow_project_id'];
  return typeof own === 'string' ? own : (run.flow_project_id ?? null);
}

/** One line per step that may have spent credits: which step, its Flow project and media ids. */
export function spentLines(run: RunView): string[] {
  const word = run.links ? 'Link' : run.steps ? 'Clip' : 'Item';
  const steps = run.links ?? run.items ?? run.steps ?? [];
  return steps.flatMap((step, i) => {
    if (!mayHaveSpent(step)) return [];
    const project = projectOf(step, run);
    const media = mediaOf(step);
    const where = [
      project ? `Flow project ${project}` : 'its Flow project is not known',
      media.length ? `media ${media.join(', ')}` : 'no media id was read',
    ].join(', ');
    return [`${word} ${i + 1} may have spent credits (${where}): look there before you retry it.`];
  });
}

/** The notes under a run that did not complete: what may have spent, then how to go on safely. */
export function runNotes(run: RunView): string[] {
  if (SETTLED_WELL.has(run.status) || run.status === 'pending' || run.status === 'running') return [];
  const id = run.task_id ?? run.chain_id ?? run.movie_id;
  const steps = run.links ?? run.items ?? run.steps ?? [];
  const unfinished = steps.some((s) => !SETTLED_WELL.has(String(s['status'])));
  const resume =
    id && unfinished
      ? [
          `Continue it with 'gflow task resume ${id}' (done steps are kept; a step that may have been submitted is recovered by its ids, never submitted again).`,
        ]
      : [];
  return [...spentLines(run), ...resume];
}
