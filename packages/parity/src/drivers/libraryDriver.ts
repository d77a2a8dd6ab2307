import { createGflow } from '@gflow/core';
import { exitCodeOf, toErrorEnvelopeBody } from '@gflow/errors';
import type { SurfaceHome } from './environment.js';
import { type CallOutcome, type SurfaceDriver, operationNamed, outcomeOfReply } from './outcome.js';

/**
 * The library surface: `createGflow(...).run` in this process. A thrown error
 * is reported through the shared formatter (the wire shape), with the exit
 * code the error maps to.
 */
export function libraryDriver(where: SurfaceHome): SurfaceDriver {
  let gflow: ReturnType<typeof createGflow> | undefined;
  const runtime = () => (gflow ??= createGflow({ surface: 'library', env: { ...where.settings }, cwd: where.home }));
  return {
    surface: 'library',
    home: where.home,
    outputDir: where.outputDir,
    costly: false,
    async call(operation, args = {}): Promise<CallOutcome> {
      const op = operationNamed(operation);
      try {
        return outcomeOfReply(await runtime().runByName(op.name, args), false);
      } catch (error) {
        return { ok: false, problem: toErrorEnvelopeBody(error), exitCode: exitCodeOf(error) || 1, reply: error };
      }
    },
    async listTools() {
      return runtime()
        .operations()
        .map((o) => o.mcpName);
    },
    serverLog: () => undefined,
    async close() {
      await gflow?.close();
      gflow = undefined;
    },
  };
}
