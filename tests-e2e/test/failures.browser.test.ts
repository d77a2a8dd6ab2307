// Journey 3: one failure of each class, and what the user sees — on the CLI
// (`--json` problem + exit code) and over MCP (the error envelope) — with what
// the simulator received (a refusal before the submit spends nothing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '@gflow/testkit';
import type { McpConnection } from '@gflow/testkit/mcp';
import { SANDBOX_EMAIL, submits, useSandbox } from '@gflow/testkit/sandbox';

const e2e = useSandbox({ seed: 'journey-failures', signIn: true });

interface Case {
  readonly name: string;
  /** Put the simulator in the failing state; returns how to undo it. */
  arrange(): void;
  restore(): void;
  readonly tool: 'gflow_generate_image' | 'gflow_generate_video';
  readonly cli: readonly string[];
  readonly mcp: Record<string, unknown>;
  readonly exit: number;
  readonly type: string;
  /** The problem's HTTP status (every problem carries one, content policy too). */
  readonly status: number;
  readonly retryable: boolean;
  /** The submits the simulator must have received. */
  readonly submits: readonly string[];
  /** No request at all may reach the simulator (refused before any browser work). */
  readonly noTraffic?: boolean;
  readonly parameter?: string;
}

const sim = () => e2e.sim.scenario;

const CASES: readonly Case[] = [
  {
    name: 'content policy',
    arrange: () => sim().setFailure(SANDBOX_EMAIL, 'content_policy', { times: 1 }),
    restore: () => sim().clearFailures(),
    tool: 'gflow_generate_image',
    cli: ['image', 't2i', 'something Flow refuses'],
    mcp: { prompt: 'something Flow refuses' },
    exit: 5,
    type: 'content-policy',
    status: 422,
    retryable: false,
    submits: ['ogiZ0b'],
  },
  {
    name: 'unusual activity (WAF)',
    arrange: () => sim().setFailure(SANDBOX_EMAIL, 'unusual_activity', { times: 1 }),
    restore: () => sim().clearFailures(),
    tool: 'gflow_generate_image',
    cli: ['image', 't2i', 'a quiet harbour'],
    mcp: { prompt: 'a quiet harbour' },
    exit: 10,
    type: 'waf-rejection',
    status: 403,
    retryable: true,
    submits: ['ogiZ0b'],
  },
  {
    name: 'insufficient credits',
    arrange: () => sim().setCredits(SANDBOX_EMAIL, 0),
    restore: () => sim().setCredits(SANDBOX_EMAIL, 1000),
    tool: 'gflow_generate_video',
    cli: ['video', 't2v', 'a costly clip'],
    mcp: { prompt: 'a costly clip', mode: 't2v' },
    exit: 37,
    type: 'insufficient-credits',
    status: 402,
    retryable: false,
    submits: [],
  },
  {
    name: 'no Flow access',
    arrange: () => sim().setFlowAccess(SANDBOX_EMAIL, false),
    restore: () => sim().setFlowAccess(SANDBOX_EMAIL, true),
    tool: 'gflow_generate_image',
    cli: ['image', 't2i', 'a locked door'],
    mcp: { prompt: 'a locked door' },
    exit: 39,
    type: 'flow-access-unavailable',
    status: 403,
    retryable: false,
    submits: [],
  },
  {
    name: 'bad parameter',
    arrange: () => undefined,
    restore: () => undefined,
    tool: 'gflow_generate_image',
    cli: ['image', 't2i', 'too many', '--count', '9'],
    mcp: { prompt: 'too many', count: 9 },
    exit: 2,
    type: 'bad-parameter',
    status: 400,
    retryable: false,
    submits: [],
    noTraffic: true,
    parameter: 'count',
  },
  {
    name: 'a profile given as a path',
    arrange: () => undefined,
    restore: () => undefined,
    tool: 'gflow_generate_image',
    cli: ['image', 't2i', 'escape', '--profile', '../sandbox'],
    mcp: { prompt: 'escape', profile: '../sandbox' },
    exit: 13,
    type: 'security',
    status: 403,
    retryable: false,
    submits: [],
    noTraffic: true,
    parameter: 'profile',
  },
  // Last: signing out kills the profile's session; the suite signs back in afterwards.
  {
    name: 'signed out',
    arrange: () => sim().signOut(SANDBOX_EMAIL),
    restore: () => undefined,
    tool: 'gflow_generate_image',
    cli: ['image', 't2i', 'a signed-out request'],
    mcp: { prompt: 'a signed-out request' },
    exit: 3,
    type: 'auth-expired',
    status: 401,
    retryable: false,
    submits: [],
  },
];

const TYPE = (slug: string) => `https://gflow.dev/errors/${slug}`;

function expectProblem(problem: Record<string, unknown>, c: Case): void {
  expect(problem['type']).toBe(TYPE(c.type));
  expect(problem['retryable']).toBe(c.retryable);
  expect(problem['status']).toBe(c.status);
  expect(typeof problem['remediation_hint']).toBe('string');
  expect(typeof problem['title']).toBe('string');
  expect(typeof problem['detail']).toBe('string');
  expect(String(problem['instance'])).toMatch(/^gflow:error:/);
  expect(String(problem['message'])).toMatch(/^\[\w+Error\] /);
  if (c.parameter) expect(problem['parameter']).toBe(c.parameter);
  // Envelopes and problems never carry local paths or tokens.
  expect(JSON.stringify(problem)).not.toContain(e2e.home);
  expect(JSON.stringify(problem)).not.toContain(e2e.sim.control.token);
}

function expectTraffic(c: Case): void {
  if (c.noTraffic) expect(e2e.sim.received.calls()).toHaveLength(0);
  expect(submits(e2e.sim)).toEqual(c.submits);
  expect(e2e.sim.received.charged(SANDBOX_EMAIL)).toBe(0);
}

/** Signs the sandbox profile back in after `signOut` (the real login flow against the simulator). */
async function signBackIn(): Promise<void> {
  const login = await e2e.cli(['auth', 'login', '--profile', 'sandbox', '--sandbox', '--json']);
  expect(login.exitCode, login.stderr).toBe(0);
  expect(json(login)).toMatchObject({ status: 'authenticated', user_email: SANDBOX_EMAIL });
}

describe('journey 3: failures on the CLI (--json problem + exit code)', () => {
  afterAll(async () => {
    await signBackIn();
  }, 60_000);

  for (const c of CASES) {
    it(`${c.name} → exit ${c.exit}`, async () => {
      e2e.sim.received.clear();
      c.arrange();
      try {
        const run = await e2e.cli([...c.cli, '--sandbox', '--json']);
        const out = json(run);
        // One failure shape: a generation that ran reports {status: failed, task_id, error}; a refusal
        // before it {status: error, error}.
        const problem = out['error'] as Record<string, unknown>;
        if (out['status'] === 'failed') expect(out).toMatchObject({ task_id: expect.any(String) });
        else expect(out['status']).toBe('error');
        expectProblem(problem, c);
        expect(run.exitCode, `${String(problem['message'])}\n${run.stderr.slice(-1500)}`).toBe(c.exit);
        expectTraffic(c);
      } finally {
        c.restore();
      }
    }, 90_000);
  }
});

describe('journey 3: failures over MCP (the error envelope)', () => {
  let conn: McpConnection;

  beforeAll(async () => {
    conn = await e2e.mcpStdio(['--sandbox']);
  }, 60_000);

  afterAll(async () => {
    await conn?.close();
    await signBackIn();
  }, 60_000);

  for (const c of CASES) {
    it(`${c.name} → ${c.type} envelope`, async () => {
      e2e.sim.received.clear();
      c.arrange();
      try {
        const reply = await conn.call(c.tool, c.mcp);
        expect(reply.isError, JSON.stringify(reply.structured)).toBe(true);
        expect(['error', 'failed']).toContain(reply.structured['status']);
        const problem = reply.structured['error'] as Record<string, unknown>;
        expect(problem, JSON.stringify(reply.structured)).toBeTypeOf('object');
        expectProblem(problem, c);
        // The text item carries the same JSON.
        const text = reply.content.find((item) => item['type'] === 'text');
        expect(JSON.parse(String(text?.['text']))).toEqual(reply.structured);
        expectTraffic(c);
      } finally {
        c.restore();
      }
    }, 90_000);
  }
});

describe('journey 3: the MCP spend brake (GFLOW_CLI_RATE_LIMIT_CAPACITY=1)', () => {
  it('the second generation answers status rate_limited with retry_after, and reaches no browser', async () => {
    const conn = await e2e.mcpStdio(['--sandbox'], {
      env: { GFLOW_CLI_RATE_LIMIT_CAPACITY: '1', GFLOW_CLI_RATE_LIMIT_REFILL_SECONDS: '3600' },
    });
    try {
      e2e.sim.received.clear();
      const first = await conn.call('gflow_generate_image', { prompt: 'the one token' });
      expect(first.isError, JSON.stringify(first.structured)).toBe(false);
      expect(first.structured['status']).toBe('completed');
      const second = await conn.call('gflow_generate_video', { prompt: 'one too many', mode: 't2v' });
      expect(second.isError).toBe(true);
      expect(second.structured['status']).toBe('rate_limited');
      const problem = second.structured['error'] as Record<string, unknown>;
      expect(problem).toMatchObject({ type: TYPE('rate-limit'), status: 429, retryable: true });
      expect(Number(problem['retry_after'])).toBeGreaterThan(0);
      expect(submits(e2e.sim)).toEqual(['ogiZ0b']);
    } finally {
      await conn.close();
    }
  }, 120_000);
});
