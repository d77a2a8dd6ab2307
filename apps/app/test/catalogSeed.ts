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

/** A project with one image (with a local file on disk) and one video, under `profile`. */
export async function seedMedia(
  home: string,
  profile: string,
  options: { mediaId?: string; project?: string; fileExists?: boolean } = {},
): Promise<{ imagePath: string }> {
  const project = options.project ?? `proj-${profile}`;
  const imagePath = path.join(home, 'out', 'images', `${options.mediaId ?? 'img-1'}-${profile}.png`);
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
      flowMediaId: options.mediaId ?? 'img-1',
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
      flowMediaId: `vid-${profile}`,
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
