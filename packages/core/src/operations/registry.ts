import type { z } from 'zod';
import type { Operation } from './operation.js';

/**
 * One operation as the registry holds it before anything of it is loaded: its two names, and the
 * module that defines it (with its zod schemas, built when the module loads). `load` loads it once;
 * `loaded` is the definition once it has been (what the runtime's synchronous reads use).
 */
export interface OperationEntry<O extends OperationShape = Operation> {
  readonly name: O['name'];
  readonly mcpName: O['mcpName'];
  readonly load: () => Promise<O>;
  readonly loaded: () => O | undefined;
}

/**
 * An entry for the operation `load` resolves to. Its names are checked against the definition's
 * literal types, so a misspelt entry does not compile; a module is loaded at most once.
 */
function entry<O extends OperationShape>(
  name: O['name'],
  mcpName: O['mcpName'],
  load: () => Promise<O>,
): OperationEntry<O> {
  let definition: O | undefined;
  let loading: Promise<O> | undefined;
  return {
    name,
    mcpName,
    load: () =>
      (loading ??= load().then((op) => {
        definition = op;
        return op;
      })),
    loaded: () => definition,
  };
}

/**
 * Every operation gflow offers, declared once, each loaded on first use: a command loads only the
 * operation it runs (`gflow models` builds one schema, not sixty). The MCP tools, the CLI commands
 * and the parity check derive from this list; importing `@gflow/core` loads them all
 * ({@link loadOperations}).
 */
export const OPERATION_ENTRIES = [
  entry('generateImage', 'gflow_generate_image', async () => (await import('./generateOperations.js')).generateImage),
  entry('generateVideo', 'gflow_generate_video', async () => (await import('./generateOperations.js')).generateVideo),
  entry('extendVideo', 'gflow_extend_video', async () => (await import('./generateOperations.js')).extendVideo),
  entry('generateBatch', 'gflow_generate_batch', async () => (await import('./batchOperation.js')).generateBatch),
  entry('generateChain', 'gflow_generate_chain', async () => (await import('./chainOperation.js')).generateChain),
  entry('chainStatus', 'gflow_chain_status', async () => (await import('./chainOperation.js')).chainStatus),
  entry('makeMovie', 'gflow_make_movie', async () => (await import('./movieOperation.js')).makeMovie),
  entry('movieStatus', 'gflow_movie_status', async () => (await import('./movieOperation.js')).movieStatus),
  entry('resumeTask', 'gflow_task_resume', async () => (await import('./resumeOperation.js')).resumeTask),
  entry('authLogin', 'gflow_auth_login', async () => (await import('./authOperations.js')).authLogin),
  entry('authStatus', 'gflow_auth_status', async () => (await import('./accountOperations.js')).authStatus),
  entry('authRenew', 'gflow_auth_renew', async () => (await import('./accountOperations.js')).authRenew),
  entry('getCredits', 'gflow_get_credits', async () => (await import('./accountOperations.js')).getCredits),
  entry('characterList', 'gflow_character_list', async () => (await import('./characterOperations.js')).characterList),
  entry('characterShow', 'gflow_character_show', async () => (await import('./characterOperations.js')).characterShow),
  entry('downloadMedia', 'gflow_download_media', async () => (await import('./mediaOperations.js')).downloadMedia),
  entry('uploadImage', 'gflow_upload_image', async () => (await import('./uploadOperation.js')).uploadImage),
  entry('upscaleImage', 'gflow_upscale_image', async () => (await import('./mediaOperations.js')).upscaleImage),
  entry('upscaleVideo', 'gflow_upscale_video', async () => (await import('./mediaOperations.js')).upscaleVideo),
  entry('stitchVideos', 'gflow_stitch_videos', async () => (await import('./stitchOperation.js')).stitchVideos),
  entry(
    'projectsCreate',
    'gflow_project_create',
    async () => (await import('./flowProjectOperations.js')).projectsCreate,
  ),
  entry(
    'projectsRename',
    'gflow_project_rename',
    async () => (await import('./flowProjectOperations.js')).projectsRename,
  ),
  entry(
    'instructionsList',
    'gflow_instructions_list',
    async () => (await import('./instructionOperations.js')).instructionsList,
  ),
  entry(
    'instructionsAdd',
    'gflow_instructions_add',
    async () => (await import('./instructionOperations.js')).instructionsAdd,
  ),
  entry(
    'instructionsSetEnabled',
    'gflow_instructions_set_enabled',
    async () => (await import('./instructionOperations.js')).instructionsSetEnabled,
  ),
  entry(
    'instructionsRm',
    'gflow_instructions_rm',
    async () => (await import('./instructionOperations.js')).instructionsRm,
  ),
  entry(
    'instructionsToggleMode',
    'gflow_instructions_toggle_mode',
    async () => (await import('./instructionOperations.js')).instructionsToggleMode,
  ),
  entry(
    'instructionsApply',
    'gflow_instructions_apply',
    async () => (await import('./instructionOperations.js')).instructionsApply,
  ),
  entry('listModels', 'gflow_list_models', async () => (await import('./listModelsOperation.js')).listModels),
  entry('listTools', 'gflow_list_tools', async () => (await import('./staticOperations.js')).listTools),
  entry('runPromptTools', 'gflow_run_prompt_tools', async () => (await import('./staticOperations.js')).runPromptTools),
  entry(
    'characterVoices',
    'gflow_character_voices',
    async () => (await import('./staticOperations.js')).characterVoices,
  ),
  entry('listProjects', 'gflow_list_projects', async () => (await import('./catalogOperations.js')).listProjects),
  entry('usageStats', 'gflow_usage_stats', async () => (await import('./catalogOperations.js')).usageStats),
  entry('creditUsage', 'gflow_credit_usage', async () => (await import('./creditOperations.js')).creditUsage),
  entry('listMedia', 'gflow_list_media', async () => (await import('./mediaCatalog.js')).listMedia),
  entry(
    'listProfileActivity',
    'gflow_list_profile_activity',
    async () => (await import('./projectCatalog.js')).listProfileActivity,
  ),
  entry('listErrors', 'gflow_list_errors', async () => (await import('./errorLog.js')).listErrors),
  entry('showMedia', 'gflow_show_media', async () => (await import('./mediaCatalog.js')).showMedia),
  entry('showProject', 'gflow_show_project', async () => (await import('./projectCatalog.js')).showProject),
  entry(
    'pruneMissingFiles',
    'gflow_prune_missing_files',
    async () => (await import('./housekeeping.js')).pruneMissingFiles,
  ),
  entry('syncCatalog', 'gflow_sync_catalog', async () => (await import('./syncOperation.js')).syncCatalog),
  entry('exportErrors', 'gflow_export_errors', async () => (await import('./errorLog.js')).exportErrors),
  entry('pruneErrors', 'gflow_prune_errors', async () => (await import('./errorLog.js')).pruneErrors),
  entry('recentCatalogMedia', 'gflow_recent_media', async () => (await import('./mediaCatalog.js')).recentCatalogMedia),
  entry(
    'catalogProjectSummary',
    'gflow_project_summary',
    async () => (await import('./projectCatalog.js')).catalogProjectSummary,
  ),
  entry('readMediaBytes', 'gflow_read_media', async () => (await import('./mediaCatalog.js')).readMediaBytes),
  entry('doctor', 'gflow_doctor', async () => (await import('./housekeeping.js')).doctor),
  entry('doctorFix', 'gflow_doctor_fix', async () => (await import('./housekeeping.js')).doctorFix),
  entry('checkFlow', 'gflow_check_flow', async () => (await import('./checkFlowOperation.js')).checkFlow),
  entry('listProfiles', 'gflow_list_profiles', async () => (await import('./profileOperations.js')).listProfiles),
  entry('useProfile', 'gflow_use_profile', async () => (await import('./profileOperations.js')).useProfile),
  entry('deleteProfile', 'gflow_delete_profile', async () => (await import('./profileOperations.js')).deleteProfile),
  entry('telemetry', 'gflow_telemetry', async () => (await import('./profileOperations.js')).telemetry),
  entry('listTasks', 'gflow_task_list', async () => (await import('./taskOperations.js')).listTasks),
  entry('showTask', 'gflow_task_get', async () => (await import('./taskOperations.js')).showTask),
  entry('waitTask', 'gflow_task_wait', async () => (await import('./taskOperations.js')).waitTask),
  entry('cancelTask', 'gflow_task_cancel', async () => (await import('./taskOperations.js')).cancelTask),
  entry(
    'galleryProjects',
    'gflow_gallery_projects',
    async () => (await import('./galleryOperations.js')).galleryProjectsOperation,
  ),
  entry(
    'galleryMedia',
    'gflow_gallery_media',
    async () => (await import('./galleryOperations.js')).galleryMediaOperation,
  ),
  entry(
    'galleryMediaDetail',
    'gflow_gallery_media_detail',
    async () => (await import('./galleryOperations.js')).galleryMediaDetailOperation,
  ),
  entry(
    'galleryFailures',
    'gflow_gallery_failures',
    async () => (await import('./galleryOperations.js')).galleryFailuresOperation,
  ),
  entry(
    'galleryTasks',
    'gflow_gallery_tasks',
    async () => (await import('./galleryOperations.js')).galleryTasksOperation,
  ),
  entry('galleryFile', 'gflow_gallery_file', async () => (await import('./galleryOperations.js')).galleryFileOperation),
  entry(
    'galleryThumbnail',
    'gflow_gallery_thumbnail',
    async () => (await import('./galleryOperations.js')).galleryThumbnailOperation,
  ),
  entry(
    'galleryMovies',
    'gflow_gallery_movies',
    async () => (await import('./galleryOperations.js')).galleryMoviesOperation,
  ),
  entry(
    'galleryMovieDetail',
    'gflow_gallery_movie_detail',
    async () => (await import('./galleryOperations.js')).galleryMovieDetailOperation,
  ),
  entry(
    'galleryMovieFile',
    'gflow_gallery_movie_file',
    async () => (await import('./galleryOperations.js')).galleryMovieFileOperation,
  ),
] as const;

/** Any one of gflow's operations, with its own types (what `createGflow()`'s runtime offers). */
export type RegisteredOperation = Awaited<ReturnType<(typeof OPERATION_ENTRIES)[number]['load']>>;

/** The entry of an operation by either of its names (`generateImage`, `gflow_generate_image`). */
export function operationEntry(name: string): OperationEntry | undefined {
  return (OPERATION_ENTRIES as readonly OperationEntry<OperationShape>[]).find(
    (e) => e.name === name || e.mcpName === name,
  ) as OperationEntry | undefined;
}

/** Loads every operation (or the named ones), in the registry's order: what a full listing needs. */
export async function loadOperations(names?: readonly string[]): Promise<readonly Operation[]> {
  const entries = names
    ? names.map((name) => operationEntry(name) ?? unknownOperation(name))
    : (OPERATION_ENTRIES as readonly OperationEntry<OperationShape>[]);
  return (await Promise.all(entries.map((e) => e.load()))) as readonly OperationShape[] as readonly Operation[];
}

/**
 * Every operation's definition, in the registry's order, when every one is loaded (importing
 * `@gflow/core` loads them; else {@link loadOperations}): for code that reads them all at once
 * and synchronously (the MCP adapter's flows). Throws when one is not loaded yet.
 */
export function loadedOperations(): readonly Operation[] {
  return (OPERATION_ENTRIES as readonly OperationEntry<OperationShape>[]).map(
    (e) => (e.loaded() as Operation | undefined) ?? unloaded(e.name),
  );
}

function unloaded(name: string): never {
  throw new Error(
    `The operation ${name} is not loaded yet: await loadOperations() (importing @gflow/core loads them all).`,
  );
}

function unknownOperation(name: string): never {
  throw new Error(`No gflow operation is named "${name}".`);
}

/** What the runtime's typing reads of an operation: its literal names and its zod schemas. */
export interface OperationShape {
  readonly name: string;
  readonly mcpName: string;
  readonly input: z.ZodObject;
  readonly output: z.ZodType;
}

/**
 * The names of a set of operations: each one's camelCase name and its MCP name. A member whose
 * name is only `string` (OperationShape itself, in `Gflow`'s default) names nothing, so a
 * misspelling never matches it.
 */
export type NameOf<O extends OperationShape> = O extends O
  ? string extends O['name']
    ? never
    : O['name'] | O['mcpName']
  : never;

/** The operation of a set that a name (either form) stands for. */
export type NamedIn<O extends OperationShape, N extends string> = Extract<
  O,
  { readonly name: N } | { readonly mcpName: N }
>;

/** A name `gflow.run` knows: an operation's camelCase name (`generateImage`) or its MCP name (`gflow_generate_image`). */
export type OperationName = NameOf<RegisteredOperation>;

/** The operation a name (either form) stands for. */
export type OperationNamed<N extends string> = NamedIn<RegisteredOperation, N>;

/** What `gflow.run(name, input)` takes as `input`: the operation's zod input, before defaults are applied. */
export type OperationInput<N extends string> = z.input<OperationNamed<N>['input']>;

/** What `gflow.run(name, …)` resolves to: the operation's zod output. */
export type OperationOutput<N extends string> = z.output<OperationNamed<N>['output']>;
