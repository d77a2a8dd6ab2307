// @gflow/core/sandbox: the zero-credit sandbox for library users and the CLI's --sandbox. A subpath of
// its own, so only a program that asks for it loads the simulator (@gflow/flow-sim, imported lazily
// when the sandbox opens).
export {
  openSandbox,
  SANDBOX_ACCOUNT,
  SANDBOX_PROFILE,
  SANDBOX_CREDITS,
  SANDBOX_NOTICE,
  type OpenSandboxOptions,
  type SandboxRuntime,
} from './openSandbox.js';
