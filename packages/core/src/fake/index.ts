// @gflow/core/testing: the fake runtime for an embedder's unit tests — every operation of the real
// runtime, by the same names and input checks, answered at once from its output schema, with
// failures and answers a test scripts. No browser, network or SQLite is loaded.
export { createFakeGflow, FakeGflow, type FakeGflowOptions, type FakeCall, type FailNextOptions } from './fakeGflow.js';
