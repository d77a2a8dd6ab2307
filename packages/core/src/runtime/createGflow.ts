import { OPERATIONS } from '../operations/registry.js';
import { type CreateGflowOptions, Gflow } from './gflow.js';

/**
 * The embeddable library's entry point: loads settings (flag > env > .env >
 * home .env > default) and returns a runtime with every operation.
 *
 * ```ts
 * const gflow = createGflow();
 * const models = await gflow.run('listModels', {});
 * await gflow.close();
 * ```
 */
export function createGflow(options: CreateGflowOptions = {}): Gflow {
  return new Gflow(options, OPERATIONS);
}
