// The one doctor check that is the CLI's own: the Node running the binary (the launcher knows the
// supported range). Every other check is core's `doctor` operation.
import type { DoctorCheck } from '@gflow/core';
import type { NodeRuntime } from '../framework/leafContext.js';

export type { DoctorCheck };

/** The running Node against the binary's supported range (fail below it: the catalog's native addon needs it). */
export function checkRuntime(node: NodeRuntime | undefined): DoctorCheck {
  if (!node)
    return {
      check: 'runtime',
      severity: 'info',
      detail: `Node ${process.versions.node}; this embedding does not say which Node it supports.`,
    };
  return node.supported
    ? { check: 'runtime', severity: 'ok', detail: `Node ${node.version} (supported: ${node.range})` }
    : {
        check: 'runtime',
        severity: 'fail',
        detail: `Node ${node.version} is outside the supported range ${node.range}; install Node 24 LTS or 22 LTS.`,
      };
}
