import { describe, expect, it } from 'vitest';
import { classifyOracleReply } from './oracleReply.js';

describe('classifyOracleReply', () => {
  it('reads a live labs session', () => {
    const body = JSON.stringify({
      user: { name: 'Ada', email: 'ada@example.com', image: 'x' },
      expires: '2030-01-01T00:00:00Z',
      access_token: 'ya29.x',
    });
    expect(classifyOracleReply(200, body)).toEqual({ kind: 'authenticated', email: 'ada@example.com' });
  });
  it('treats 200 {} and an empty user as no labs session', () => {
    expect(classifyOracleReply(200, '{}')).toEqual({ kind: 'empty' });
    expect(classifyOracleReply(200, '{"user":{"email":""}}')).toEqual({ kind: 'empty' });
    expect(classifyOracleReply(200, '{"user":null}')).toEqual({ kind: 'empty' });
  });
  it('retries only 429/503/504', () => {
    expect(classifyOracleReply(503, '')).toMatchObject({ kind: 'error', retry: true });
    expect(classifyOracleReply(429, '')).toMatchObject({ kind: 'error', retry: true });
    expect(classifyOracleReply(504, '')).toMatchObject({ kind: 'error', retry: true });
    expect(classifyOracleReply(500, '')).toMatchObject({ kind: 'error', retry: false });
    expect(classifyOracleReply(302, '')).toMatchObject({ kind: 'error', retry: false });
  });
  it('calls non-JSON or non-object bodies verification errors', () => {
    expect(classifyOracleReply(200, '<html>')).toMatchObject({ kind: 'error', retry: false });
    expect(classifyOracleReply(200, '[]')).toMatchObject({ kind: 'error' });
    expect(classifyOracleReply(200, 'null')).toMatchObject({ kind: 'error' });
  });
});
