import { ERROR_CLASSES, toErrorEnvelopeBody } from '@gflow/errors';
import { describe, expect, it } from 'vitest';
import { mcpWording, withMcpWording } from './mcpWording.js';

describe('mcpWording', () => {
  it('names MCP routes where a hint names a CLI command', () => {
    expect(mcpWording("fetch it later with 'gflow data download 5da75c4a-0e16' (spends nothing)")).toBe(
      'fetch it later with gflow_download_media {"media_id": "5da75c4a-0e16"} (spends nothing)',
    );
    expect(
      mcpWording('recover it with gflow_download_media (gflow data download MEDIA_ID), which spends nothing.'),
    ).toBe('recover it with gflow_download_media, which spends nothing.');
    expect(mcpWording("Run the command with '--help' to see its arguments.")).toContain('inputSchema');
    expect(
      mcpWording("Wait again with 'gflow task wait 5da75c4a-0e16', or stop it with 'gflow task cancel 5da75c4a-0e16'."),
    ).toBe(
      'Wait again with gflow_task_wait {"task_id": "5da75c4a-0e16"}, or stop it with gflow_task_cancel {"task_id": "5da75c4a-0e16"}.',
    );
    expect(mcpWording('Name another file, or pass --force to replace it.')).toBe(
      'Name another file, or pass overwrite: true to replace it.',
    );
  });

  it('leaves no CLI download, listing or cancel command in any class hint as MCP shows it', () => {
    for (const [code, ErrorClass] of Object.entries(ERROR_CLASSES)) {
      const body = withMcpWording(toErrorEnvelopeBody(new ErrorClass('x')) as unknown as Record<string, unknown>);
      const said = `${String(body['remediation_hint'])} ${String(body['message'])}`;
      expect(said, code).not.toMatch(/gflow data (download|list)|gflow task cancel|--help/);
    }
  });
});
