import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseBatchexecute } from '../wire/batchexecute.js';
import type { TappedResponse } from '../session/wireTap.js';
import { checkReplies } from './replyChecks.js';

function reply(rpcId: string, payload: unknown, status = 200): TappedResponse {
  const line = JSON.stringify([['wrb.fr', rpcId, JSON.stringify(payload), null, null, null, 'generic']]);
  return {
    seq: 1,
    at: 0,
    rpcIds: [rpcId],
    status,
    headers: {},
    envelope: parseBatchexecute(`)]}'\n\n${line.length}\n${line}\n`),
    request: {} as Request,
  };
}

const byId = (checks: ReturnType<typeof checkReplies>, id: string) => checks.find((c) => c.id === id);

describe('checkReplies', () => {
  it("reads each reply with the driver's own parser", () => {
    const rows = [[['1b4e28ba-2fa1-11d2-883f-0016d3cca427', 'cat.png', 'UPLOAD', '/asb/t', [1, 1], 'media']]];
    const checks = checkReplies([reply('UpteDb', rows), reply('UpteDb', [[]])]);
    expect(byId(checks, 'reply.search')).toMatchObject({ status: 'ok', seen: 2 });
    expect(byId(checks, 'reply.create_project')).toMatchObject({ status: 'not_seen', seen: 0 });
  });

  it("says drifted, with the parser's words, for a shape it does not read", () => {
    const checks = checkReplies([reply('UpteDb', { results: [[]] })]);
    expect(byId(checks, 'reply.search')).toMatchObject({ status: 'drifted', seen: 1 });
    expect(byId(checks, 'reply.search')?.found).toMatch(/not a list of rows/);
  });

  it('does not judge a reply whose body was gone (the page navigated on it)', () => {
    const gone: TappedResponse = { ...reply('jHPbke', []), envelope: null };
    expect(byId(checkReplies([gone]), 'reply.create_project')?.status).toBe('not_seen');
  });
});
