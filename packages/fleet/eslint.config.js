import { gflowEslint } from '@gflow/tooling/eslint';

export default gflowEslint(import.meta.dirname);
