import fs from 'node:fs';
import path from 'node:path';
import type { TaskRecord } from '@gflow/catalog';
import { ConfigurationError } from '@gflow/errors';
import type { GenerationResult } from '../generation/index.js';
import { finalEnvelopeOf } from '../tasks/taskEnvelope.js';
import { writeMovie } from '../movie/movieFile.js';
import { exitOfEnvelope } from './batchRun.js';
import { frameFileOf, lastFrameFile } from './clipFrames.js';
import type { RunKind, RunSteps } from './runExecution.js';
import type { ChainRunRequest } from './runRequest.js';
import type { ChainResult, LinkResult } from './runResults.js';

export { type ChainResult, type LinkResult, chainResult, linkResult } from './runResults.js';

function linkOf(request: ChainRunRequest, steps: RunSteps, index: number, settled: boolean): LinkResult {
  const row: TaskRecord | undefined = steps.rows.get(index);
  const base = {
    index,
    prompt: request.links[index]?.prompt ?? '',
    mode: index === 0 ? ('t2v' as const) : ('i2v' as const),
  };
  if (row === undefined || row.status === 'pending')
    return { ...base, status: 'pending', task_id: row?.taskId ?? null };
  if (row.status === 'working')
    return { ...base, status: 'running', task_id: row.taskId, phase: row.checkpoint?.phase ?? null };
  const result = row.status === 'completed' ? (row.result as GenerationResult) : finalEnvelopeOf(row);
  const file = result.files?.[0] ?? null;
  const next = settled || index < request.links.length - 1 ? file : null;
  return {
    ...base,
    status: row.status === 'completed' ? 'done' : row.status === 'indeterminate' ? 'indeterminate' : 'failed',
    task_id: row.taskId,
    flow_media_id: result.flow_media_id ?? row.checkpoint?.media_ids[0] ?? null,
    file,
    frame: next && fs.existsSync(frameFileOf(next)) ? frameFileOf(next) : null,
    ...(row.status === 'completed' ? {} : { error: result.error }),
  };
}

/** A chain: link 1 text-to-video, each later link image-to-video from the clip before's last frame; a failure stops it. */
export const CHAIN_RUN: RunKind<ChainRunRequest, ChainResult> = {
  stepWord: 'link',
  async askFor(request, index, steps, context) {
    const link = request.links[index] as ChainRunRequest['links'][number];
    const output = path.join(request.out_dir, `link-${index + 1}`);
    const project = steps.project ? { project: steps.project } : {};
    if (index === 0) return { kind: 'video', input: { ...link, ...project, output } };
    const previous = steps.rows.get(index - 1)?.result as GenerationResult | undefined;
    const clip = previous?.files?.[0];
    if (clip === undefined) throw new ConfigurationError(`Link ${index + 1} has no clip to continue from.`);
    const frame = await lastFrameFile(context, request.profile, clip);
    return { kind: 'video', input: { ...link, ...project, initial_frame: frame, output } };
  },
  stopsAfterFailure: () => true,
  view(request, steps, status) {
    const settled = status === 'settled';
    const links = request.links.map((_, i) => linkOf(request, steps, i, settled));
    const failed = links.find((l) => l.status === 'failed' || l.status === 'indeterminate');
    const done = links.every((l) => l.status === 'done');
    const overall = !settled
      ? 'running'
      : done
        ? 'completed'
        : failed?.status === 'indeterminate'
          ? 'indeterminate'
          : 'failed';
    return {
      status: overall,
      chain_id: request.task_id,
      task_id: request.task_id,
      flow_project_id: steps.project,
      links,
      made: steps.made,
      exit_code: failed === undefined ? 0 : exitOfEnvelope({ status: 'failed', error: failed.error }),
      credits_quoted: null,
      ...(failed?.error === undefined ? {} : { error: failed.error }),
    };
  },
  /** With --stitch: the links joined in order (nothing cut: a link starts from the frame the one before ends on). */
  async finish(request, steps, context, record) {
    if (request.output == null) return {};
    const clips = request.links.map((link, index) => {
      const result = steps.rows.get(index)?.result as GenerationResult | undefined;
      const file = result?.files?.[0] ?? '';
      const mediaId = result?.flow_media_id ?? null;
      return { name: `Link ${index + 1}`, file, mediaId, prompt: link.prompt, scene: index, step: index };
    });
    const trims = clips.slice(1).map(() => 0);
    const movie = await writeMovie(context, record, {
      title: `Chain ${request.task_id}`,
      profile: request.profile,
      clips,
      trims,
      target: request.output,
      overwrite: request.overwrite === true,
    });
    return { output: movie.output, timeline: movie.timeline };
  },
  succeeded: (view) => view.status === 'completed',
  firstError: (view) => view.error,
};
