import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createGflow } from '@gflow/core';

/** Opens the catalog of a test home through core (as the CLI will) and hands it to `fn`. */
export async function withCatalog<T>(
  home: string,
  fn: (catalog: ReturnType<typeof createGflow>['catalog']) => T,
): Promise<T> {
  const gflow = createGflow({
    surface: 'library',
    env: { GFLOW_CLI_HOME: home, GFLOW_CLI_OUTPUT_DIR: path.join(home, 'out') },
  });
  try {
    return fn((await gflow.ready()).catalog);
  } finally {
    await gflow.close();
  }
}

/**
 * The Flow id (a UUID, as every surface requires) a test names `name`: the same name, the same id,
 * so a test seeds `seedId('img-1')` and asks for it by that name.
 */
export function seedId(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A project with one image (with a local file on disk) and one video, under `profile` (ids: seedId of the names). */
export async function seedMedia(
  home: string,
  profile: string,
  options: { mediaId?: string; project?: string; fileExists?: boolean } = {},
): Promise<{ imagePath: string }> {
  const project = seedId(options.project ?? `proj-${profile}`);
  const mediaId = seedId(options.mediaId ?? 'img-1');
  const imagePath = path.join(home, 'out', 'images', `${mediaId}-${profile}.png`);
  if (options.fileExists !== false) {
    fs.mkdirSync(path.dirname(imagePath), { recursive: true });
    fs.writeFileSync(imagePath, 'png-bytes');
  }
  await withCatalog(home, (catalog) => {
    catalog.projects.upsert({ profile, flowProjectId: project, title: `Project of ${profile}` });
    const op = catalog.operations.start({
      profile,
      command: 'image t2i',
      mode: 't2i',
      flowProjectId: project,
      prompt: 'a red fox',
      model: 'nano2',
    });
    const image = catalog.assets.record({
      profile,
      flowMediaId: mediaId,
      kind: 'image',
      flowProjectId: project,
      model: 'nano2',
      aspectRatio: '9:16',
    });
    catalog.assets.link(op.id, image.id, 'output', 0);
    catalog.localFiles.record({ assetId: image.id, path: imagePath, bytes: 9 });
    catalog.operations.succeed(op.id);
    catalog.assets.record({
      profile,
      flowMediaId: seedId(`vid-${profile}`),
      kind: 'video',
      flowProjectId: project,
      model: 'veo_3_1_fast',
      durationSeconds: 8,
    });
  });
  return { imagePath };
}

/** A failed operation whose start is `daysAgo` days back. */
export async function seedError(
  home: string,
  profile: string,
  daysAgo: number,
  errorType = 'content-policy',
): Promise<void> {
  await withCatalog(home, (catalog) => {
    const op = catalog.operations.start({ profile, command: 'video t2v', mode: 't2v', prompt: 'waves' });
    catalog.operations.fail(op.id, { errorType, errorDetail: `failed ${daysAgo} days ago` });
    const when = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
    catalog.database
      .prepare('UPDATE operations SET started_at = ?, completed_at = ? WHERE id = ?')
      .run(when, when, op.id);
  });
}
