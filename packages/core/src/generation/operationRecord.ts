import type { Catalog } from '@gflow/catalog';
import { type GenerationRequest, aspectOf } from './request.js';

type StartOperationInput = Parameters<Catalog['operations']['start']>[0];

/** The operation row a generation's run starts in this machine's catalog (its history and credit ledger). */
export function operationInputOf(
  request: GenerationRequest,
  at: { readonly taskId: string; readonly projectId: string | null },
): StartOperationInput {
  return {
    profile: request.input.profile,
    command: request.command,
    mode: request.plan.mode,
    prompt: request.input.prompt,
    expandedPrompt: request.expanded_prompt === request.input.prompt ? null : request.expanded_prompt,
    model: request.plan.model ?? null,
    aspectRatio: aspectOf(request),
    taskId: at.taskId,
    flowProjectId: at.projectId,
    surface: request.surface,
    metadata: { tools: request.input.tools ?? [], entity_ids: request.plan.characters.map((c) => c.entityId) },
  };
}

/**
 * The operation a recovered step records its results under: the one its checkpoint names when it
 * is this catalog's row of this task (the step ran on this machine), else a new one here. A step
 * run on another machine of a fleet names that machine's operation id, which means nothing (or
 * another operation) in this catalog.
 */
export function recoveryOperation(
  catalog: Catalog,
  request: GenerationRequest,
  step: { readonly taskId: string; readonly operationId: number | null; readonly projectId: string | null },
): number {
  const recorded = step.operationId === null ? undefined : catalog.operations.get(step.operationId);
  if (recorded !== undefined && recorded.taskId === step.taskId) return recorded.id;
  const input = operationInputOf(request, step);
  return catalog.operations.start({ ...input, metadata: { ...input.metadata, recovered: true } }).id;
}
