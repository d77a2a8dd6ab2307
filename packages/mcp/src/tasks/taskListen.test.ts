import { describe, expect, it } from 'vitest';
import { judgeJsonRpcMessage } from '../transport/jsonRpcInput.js';
import { refusedTaskListen } from './taskListen.js';

const listen = (notifications: Record<string, unknown>, capabilities: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'subscriptions/listen',
  params: { notifications, _meta: { 'io.modelcontextprotocol/clientCapabilities': capabilities } },
});
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

describe('refusedTaskListen (SEP-2663: task notifications need the extension)', () => {
  it('refuses a listen for task ids without the extension: -32021 naming it, with the request id', () => {
    expect(refusedTaskListen(listen({ taskIds: ['t1'] }))).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32021,
        message: expect.stringContaining('io.modelcontextprotocol/tasks'),
        data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
      },
    });
  });

  it('lets a declaring client, a listen without task ids and every other method through', () => {
    expect(refusedTaskListen(listen({ taskIds: ['t1'] }, TASKS))).toBeUndefined();
    expect(refusedTaskListen(listen({ toolsListChanged: true }))).toBeUndefined();
    expect(refusedTaskListen(listen({ taskIds: [] }))).toBeUndefined();
    expect(refusedTaskListen({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })).toBeUndefined();
  });

  it("is the transports' judgement too (stdio lines and HTTP bodies)", () => {
    expect(judgeJsonRpcMessage(listen({ taskIds: ['t1'] }))).toMatchObject({
      kind: 'answer',
      response: { error: { code: -32021 } },
    });
    expect(judgeJsonRpcMessage(listen({ taskIds: ['t1'] }, TASKS))).toEqual({ kind: 'pass' });
  });
});
