import { eq } from 'drizzle-orm';
import { BadParameterError, DataIntegrityError, redactAndClip, toGflowError } from '@gflow/errors';
import type { CatalogContext } from '../context.js';
import { sha256Text } from '../hashing.js';
import { operations } from '../schema/index.js';
import { assertProfileName, optionalFlowId } from '../validation.js';
import type { ProfilesRepo } from './profilesRepo.js';

export type OperationRow = typeof operations.$inferSelect;
export type OperationStatus = OperationRow['status'];

/** Longest error detail stored (after redaction). */
export const ERROR_DETAIL_MAX = 500;

export interface StartOperationInput {
  readonly profile: string;
  /** `image t2i`, `gflow_generate_video`, … */
  readonly command: string;
  /** upload_image | t2i | i2i | t2v | i2v | r2v | scene_create | … */
  readonly mode?: string | null;
  readonly flowProjectId?: string | null;
  readonly prompt?: string | null;
  readonly expandedPrompt?: string | null;
  readonly model?: string | null;
  readonly aspectRatio?: string | null;
  readonly taskId?: string | null;
  /** The surface the call came through (the credit ledger groups by it). */
  readonly surface?: 'cli' | 'mcp' | 'http' | 'library' | null;
  /** tool, entity_ids, entity_names, … */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface SucceedOperationInput {
  readonly flowProjectId?: string | null;
  readonly flowOperationId?: string | null;
  readonly flowBatchId?: string | null;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface FailOperationInput {
  /** The problem slug (error code), e.g. `content-policy`. */
  readonly errorType: string;
  /** Redacted and clipped to 500 characters before storage. */
  readonly errorDetail: string;
  readonly flowProjectId?: string | null;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface OperationsRepo {
  /** Records a run as `started`; in redacted mode the prompt text is replaced by its hash. */
  start(input: StartOperationInput): OperationRow;
  succeed(id: number, input?: SucceedOperationInput): OperationRow;
  fail(id: number, input: FailOperationInput): OperationRow;
  /** `fail` from any thrown value: slug from its gflow code, detail from its (masked) text. */
  failWith(id: number, error: unknown, input?: Omit<FailOperationInput, 'errorType' | 'errorDetail'>): OperationRow;
  /**
   * A failed run whose media were recovered afterwards (it stopped after its submit and a resume
   * fetched what Flow made): `succeeded`, its error cleared, `recovered: true` in its metadata.
   */
  recover(id: number, input?: { readonly flowProjectId?: string | null }): OperationRow;
  get(id: number): OperationRow | undefined;
}

export function createOperationsRepo(ctx: CatalogContext, profilesRepo: ProfilesRepo): OperationsRepo {
  const finish = (
    id: number,
    status: 'succeeded' | 'failed',
    set: Partial<typeof operations.$inferInsert>,
    metadata?: Readonly<Record<string, unknown>>,
  ): OperationRow =>
    ctx.write(() => {
      const current = ctx.orm
        .select({ status: operations.status, metadataJson: operations.metadataJson })
        .from(operations)
        .where(eq(operations.id, id))
        .get();
      if (current === undefined) throw new DataIntegrityError(`No operation with id ${id}.`);
      if (current.status !== 'started') throw new DataIntegrityError(`Operation ${id} is already ${current.status}.`);
      const merged =
        metadata === undefined
          ? current.metadataJson
          : JSON.stringify({ ...JSON.parse(current.metadataJson), ...metadata });
      return ctx.orm
        .update(operations)
        .set({ ...set, status, completedAt: ctx.now(), metadataJson: merged })
        .where(eq(operations.id, id))
        .returning()
        .get() as OperationRow;
    });

  const fail: OperationsRepo['fail'] = (id, input) => {
    if (!/^[a-z0-9-]{1,64}$/.test(input.errorType)) throw new BadParameterError('errorType must be a problem slug.');
    const flowProjectId = optionalFlowId(input.flowProjectId, 'project_id');
    return finish(
      id,
      'failed',
      {
        errorType: input.errorType,
        errorDetail: redactAndClip(input.errorDetail, ERROR_DETAIL_MAX),
        ...(flowProjectId === null ? {} : { flowProjectId }),
      },
      input.metadata,
    );
  };

  return {
    start(input) {
      assertProfileName(input.profile);
      const redacted = ctx.historyPrompts === 'redacted';
      const prompt = input.prompt ?? null;
      return ctx.write(() => {
        profilesRepo.touch(input.profile);
        return ctx.orm
          .insert(operations)
          .values({
            profileName: input.profile,
            command: input.command,
            mode: input.mode ?? null,
            flowProjectId: optionalFlowId(input.flowProjectId, 'project_id'),
            status: 'started',
            taskId: input.taskId ?? null,
            surface: input.surface ?? null,
            prompt: redacted ? null : prompt,
            promptHash: prompt === null ? null : sha256Text(prompt),
            promptRedacted: redacted && prompt !== null,
            expandedPrompt: redacted ? null : (input.expandedPrompt ?? null),
            model: input.model ?? null,
            aspectRatio: input.aspectRatio ?? null,
            startedAt: ctx.now(),
            metadataJson: JSON.stringify(input.metadata ?? {}),
          })
          .returning()
          .get();
      });
    },
    succeed(id, input = {}) {
      const flowProjectId = optionalFlowId(input.flowProjectId, 'project_id');
      const flowOperationId = input.flowOperationId ?? null;
      const flowBatchId = input.flowBatchId ?? null;
      return finish(
        id,
        'succeeded',
        {
          ...(flowProjectId === null ? {} : { flowProjectId }),
          ...(flowOperationId === null ? {} : { flowOperationId }),
          ...(flowBatchId === null ? {} : { flowBatchId }),
        },
        input.metadata,
      );
    },
    fail,
    failWith(id, error, input = {}) {
      const gflowError = toGflowError(error);
      return fail(id, { ...input, errorType: gflowError.code, errorDetail: gflowError.detail });
    },
    recover(id, input = {}) {
      const flowProjectId = optionalFlowId(input.flowProjectId, 'project_id');
      return ctx.write(() => {
        const current = ctx.orm.select().from(operations).where(eq(operations.id, id)).get();
        if (current === undefined) throw new DataIntegrityError(`No operation with id ${id}.`);
        if (current.status === 'succeeded') return current;
        const metadata = JSON.stringify({ ...JSON.parse(current.metadataJson), recovered: true });
        const set = { status: 'succeeded' as const, errorType: null, errorDetail: null, metadataJson: metadata };
        return ctx.orm
          .update(operations)
          .set({ ...set, completedAt: ctx.now(), ...(flowProjectId === null ? {} : { flowProjectId }) })
          .where(eq(operations.id, id))
          .returning()
          .get() as OperationRow;
      });
    },
    get(id) {
      return ctx.orm.select().from(operations).where(eq(operations.id, id)).get();
    },
  };
}
