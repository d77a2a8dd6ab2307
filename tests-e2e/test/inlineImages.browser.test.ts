// Journey (issue 43 item 2): a client on another machine gives gflow an image inline. Over
// `gflow serve` (Streamable HTTP), a base64 PNG as an i2v start frame makes the clip — the
// simulator received that very PNG as the upload — and gflow_upload_image takes a data URL and
// answers a media id; a URL is refused (bad-parameter) and nothing is sent.
import { describe, expect, it } from 'vitest';
import { makePng } from '@gflow/flow-sim';
import { decodePng } from '@gflow/flow-sim/testing';
import { gflowHttp } from '@gflow/testkit/cli';
import { submits, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'journey-inline-images', signIn: true });

/** The PNG bytes of every upload (maseQ) the simulator received, in order. */
function uploads(): Buffer[] {
  return e2e.sim.received.calls('maseQ').map((call) => {
    const b64 = ((JSON.parse(String(call.inner)) as unknown[][])[0]?.[1] as string | undefined) ?? '';
    return Buffer.from(b64, 'base64');
  });
}

describe('images sent inline over gflow serve', () => {
  it('a base64 PNG as the start frame makes the clip; gflow_upload_image takes one; a URL is refused, nothing sent', async () => {
    const serve = await e2e.serve(['--sandbox']);
    const conn = await gflowHttp(serve, { era: 'modern' });
    try {
      const png = makePng(320, 568, 'inline-frame');
      const frame = `data:image/png;base64,${png.toString('base64')}`;
      e2e.sim.received.clear();
      const clip = await conn.call('gflow_generate_video', {
        prompt: 'it comes alive',
        mode: 'i2v',
        initial_frame: frame,
      });
      expect(clip.isError, JSON.stringify(clip.structured)).toBe(false);
      expect(clip.structured).toMatchObject({ status: 'completed', files: [expect.stringMatching(/\.mp4$/)] });
      const sent = uploads();
      expect(sent).toHaveLength(1);
      const asMade = decodePng(png);
      expect(asMade?.width).toBe(320);
      expect(decodePng(sent[0] as Buffer)).toEqual(asMade);

      const uploaded = await conn.call('gflow_upload_image', { path: frame });
      expect(uploaded.isError, JSON.stringify(uploaded.structured)).toBe(false);
      expect(uploaded.structured).toMatchObject({ status: 'ok', media_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });

      e2e.sim.received.clear();
      const fetched = await conn.call('gflow_generate_video', {
        prompt: 'it comes alive',
        mode: 'i2v',
        initial_frame: 'https://example.com/frame.png',
      });
      expect(fetched.isError).toBe(true);
      expect(JSON.stringify(fetched.structured)).toMatch(/bad-parameter/);
      expect(JSON.stringify(fetched.structured)).toMatch(/does not fetch images from URLs/);
      expect(submits(e2e.sim)).toEqual([]);
      expect(uploads()).toEqual([]);
    } catch (error) {
      throw new Error(`${String(error)}\nserver stderr:\n${conn.stderr().slice(-3000)}`, { cause: error });
    } finally {
      await conn.close();
      await serve.stop();
    }
  }, 240_000);
});
