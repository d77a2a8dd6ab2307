import { OPERATION_ENTRIES, type OperationShape, type RegisteredOperation } from '../operations/registry.js';
import { type CreateGflowOptions, Gflow } from './gflow.js';

/**
 * The embeddable library's entry point: loads settings (flag > env > .env >
 * home .env > default) and returns a runtime with every operation. Each operation's module loads
 * when the runtime first needs it (importing `@gflow/core` loads them all; `@gflow/core/surfaces`
 * does not, so gflow's CLI loads only the operation a command runs).
 *
 * ```ts
 * const gflow = createGflow();
 * const models = await gflow.run('listModels', {});
 * await gflow.close();
 * ```
 */
export function createGflow(options: CreateGflowOptions = {}): Gflow {
  return new Gflow<RegisteredOperation | OperationShape>(options, OPERATION_ENTRIES);
}
