import { z } from 'zod';
import { MAX_DATA_URL_CHARS, inlineImagesDir, localImageOf, readLocalImage } from '../generation/index.js';
import { resolveProfile } from '../home/profiles.js';
import { withFlowSession } from '../runtime/flowSessions.js';
import { flowUuid, profileParam } from '../schemas/params.js';
import { defineOperation } from './operation.js';

export const uploadImage = defineOperation({
  name: 'uploadImage',
  mcpName: 'gflow_upload_image',
  title: 'Upload an image',
  description:
    'Uploads an image (PNG/JPEG/WebP/GIF, ≤ 20 MB: a path on the machine gflow runs on, or the image inline as a data URL, data:image/png;base64,…) into a Flow project through its own upload button, under a run-unique name, and records it; the media id can then be used as a reference or frame. Spends nothing.',
  kind: 'create',
  usesBrowser: true,
  input: z.object({
    path: z
      .string()
      .trim()
      .min(1)
      .max(MAX_DATA_URL_CHARS)
      .describe('The image: a path on the machine gflow runs on, or a data URL (data:image/png;base64,…).'),
    project: flowUuid('project').optional(),
    profile: profileParam,
  }),
  output: z.looseObject({
    status: z.literal('ok'),
    media_id: z.string(),
    project_id: z.string(),
    /** The file's size in bytes, as uploaded. */
    bytes: z.number().int().nonnegative(),
  }),
  handler: async (input, context) => {
    const { runtime } = context;
    const given = localImageOf(input.path, 'path', inlineImagesDir(runtime.layout.cacheDir));
    const local = readLocalImage(given, 'path', process.cwd());
    const profile = resolveProfile(runtime.layout, {
      requested: input.profile,
      settings: runtime.settings,
    });
    const project = input.project ?? runtime.settings.project;
    const use = { signal: context.signal, onProgress: context.onProgress, facts: () => ({ operation: 'uploadImage' }) };
    const uploaded = await withFlowSession(runtime, profile, use, (session) =>
      session.uploadImage({ path: local.path, ...(project ? { projectId: project } : {}), signal: context.signal }),
    );
    const title = uploaded.projectTitle;
    runtime.catalog.projects.upsert({
      profile: profile.name,
      flowProjectId: uploaded.projectId,
      ...(title ? { title } : {}),
    });
    runtime.catalog.assets.record({
      profile: profile.name,
      flowMediaId: uploaded.mediaId,
      kind: 'image',
      flowProjectId: uploaded.projectId,
      displayName: uploaded.displayName,
      status: 'ready',
      metadata: { source: 'upload' },
    });
    return {
      status: 'ok' as const,
      media_id: uploaded.mediaId,
      project_id: uploaded.projectId,
      display_name: uploaded.displayName,
      profile: profile.name,
      path: local.path,
      bytes: local.bytes,
    };
  },
});
