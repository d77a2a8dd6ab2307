// The sandbox demo (README's first command): an MCP client drives
// `gflow mcp run --sandbox` over stdio to generate an image, then a video from
// that image's media id, against the built-in Flow simulator in real headless
// Chromium; then it prints the files and the catalog (`gflow data list`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const appDir = path.resolve(import.meta.dirname, '..');
const bin = path.join(appDir, 'bin', 'gflow.js');
const say = (line: string): void => void process.stdout.write(`${line}\n`);

interface ToolResult {
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

async function main(): Promise<void> {
  // Progress comes over MCP; the server's own info logs would only repeat it.
  const env = { GFLOW_CLI_LOG_LEVEL: 'WARNING', ...process.env } as Record<string, string>;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', 'run', '--sandbox'],
    env,
    stderr: 'inherit',
  });
  const client = new Client({ name: 'gflow-demo', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  try {
    const tools = await client.listTools();
    say(`Connected to gflow over MCP (${tools.tools.length} tools).`);
    const progress =
      (label: string) => (p: { progress: number; total?: number | undefined; message?: string | undefined }) =>
        say(`  [${label}] ${p.message ?? ''}${p.total ? ` ${p.progress}/${p.total}` : ''}`);

    say('1) gflow_generate_image: "a red fox in fresh snow, golden hour", 16:9');
    const image = (await client.callTool(
      { name: 'gflow_generate_image', arguments: { prompt: 'a red fox in fresh snow, golden hour', aspect: '16:9' } },
      { onprogress: progress('image'), timeout: 300_000 },
    )) as ToolResult;
    const imageResult = image.structuredContent ?? {};
    if (image.isError || imageResult['status'] !== 'completed')
      throw new Error(`image generation did not complete: ${JSON.stringify(imageResult)}`);
    const mediaId = String(imageResult['flow_media_id']);
    say(`   image media id ${mediaId}`);
    for (const file of imageResult['files'] as string[]) say(`   file: ${file} (${fs.statSync(file).size} bytes)`);

    say(`2) gflow_generate_video: i2v from ${mediaId}, 16:9`);
    const video = (await client.callTool(
      {
        name: 'gflow_generate_video',
        arguments: { prompt: 'the fox turns and trots away', mode: 'i2v', initial_frame: mediaId, aspect: '16:9' },
      },
      { onprogress: progress('video'), timeout: 600_000 },
    )) as ToolResult;
    const videoResult = video.structuredContent ?? {};
    if (video.isError || videoResult['status'] !== 'completed')
      throw new Error(`video generation did not complete: ${JSON.stringify(videoResult)}`);
    for (const file of videoResult['files'] as string[]) say(`   file: ${file} (${fs.statSync(file).size} bytes)`);
  } finally {
    await client.close();
  }

  for (const what of ['images', 'videos']) {
    say(`3) gflow data list ${what} --sandbox`);
    const listed = spawnSync(process.execPath, [bin, 'data', 'list', what, '--sandbox', '--limit', '5', '--json'], {
      env,
      encoding: 'utf8',
    });
    if (listed.status !== 0) throw new Error(`gflow data list ${what} exited ${listed.status}: ${listed.stderr}`);
    for (const line of listed.stdout.split('\n').filter(Boolean)) {
      const row = JSON.parse(line) as Record<string, unknown>;
      say(
        `   ${String(row['created_at'])}  ${String(row['media_id'])}  ${String(row['model'])}  ${String(row['aspect_ratio'])}  ${String(row['path'])}`,
      );
    }
  }
  say('Done: nothing was sent to Google and no credits were spent.');
  say('See them in the browser: node apps/app/bin/gflow.js gallery --sandbox');
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
