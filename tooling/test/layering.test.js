import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ADAPTERS, NO_CATALOG, layeringPlugin } from '../eslint/config.js';
import { LAYERS, layeringViolation } from '../eslint/layering.js';

function lint(packageName, code, file) {
  const linter = new Linter({ configType: 'flat' });
  const dir = `${process.cwd()}/pkg`;
  return linter.verify(
    code,
    [
      {
        files: ['**/*.ts', '**/*.js'],
        languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
        plugins: { gflow: layeringPlugin(packageName, file === undefined ? undefined : dir) },
        rules: { 'gflow/layering': 'error' },
      },
    ],
    file === undefined ? undefined : `${dir}/${file}`,
  );
}

describe('gflow/layering', () => {
  it('lets core import the simulator only behind its sandbox entry (src/sandbox/)', () => {
    const code = "const { startFlowSim } = await import('@gflow/flow-sim');\n";
    expect(lint('@gflow/core', code, 'src/sandbox/openSandbox.ts')).toEqual([]);
    const elsewhere = lint('@gflow/core', code, 'src/runtime/gflow.ts');
    expect(elsewhere).toHaveLength(1);
    expect(elsewhere[0].message).toContain('@gflow/core may import @gflow/flow-sim only in src/sandbox/');
    // A package.json's dependency list names no file: the dependency itself is allowed.
    expect(layeringViolation('@gflow/core', '@gflow/flow-sim')).toBeUndefined();
  });

  it('fails when the driver imports the simulator, and says why', () => {
    const messages = lint('@gflow/driver', "import { startFlowSim } from '@gflow/flow-sim';\n");
    expect(messages).toHaveLength(1);
    expect(messages[0].message).toContain('@gflow/driver may not import @gflow/flow-sim');
    expect(messages[0].message).toContain('Why:');
  });

  it('fails for an adapter reaching past core, in every import form', () => {
    const code = [
      "import { openCatalog } from '@gflow/catalog';",
      "export { x } from '@gflow/lease/sub';",
      "export * from '@gflow/driver';",
      "const m = await import('@gflow/catalog');",
    ].join('\n');
    expect(lint('@gflow/mcp', code).map((m) => m.line)).toEqual([1, 2, 3, 4]);
  });

  it('allows what the table allows', () => {
    expect(
      lint(
        '@gflow/core',
        "import { a } from '@gflow/errors';\nimport { b } from '@gflow/driver';\nimport x from 'zod';\n",
      ),
    ).toEqual([]);
    expect(lint('@gflow/errors', "import fs from 'node:fs';\n")).toEqual([]);
  });

  it('puts the Flow facts below catalog, lease, driver and core, and out of reach of the simulator and the adapters', () => {
    for (const name of ['@gflow/catalog', '@gflow/lease', '@gflow/driver', '@gflow/core']) {
      expect(lint(name, "import { findImageModel } from '@gflow/flow-facts';\n"), name).toEqual([]);
    }
    expect(lint('@gflow/flow-facts', "import { SecurityError } from '@gflow/errors';\n")).toEqual([]);
    expect(lint('@gflow/flow-facts', "import { openFlowSession } from '@gflow/driver';\n")[0]?.message).toContain(
      '@gflow/flow-facts may not import @gflow/driver',
    );
    expect(lint('@gflow/flow-sim', "import { IMAGE_MODELS } from '@gflow/flow-facts';\n")).toHaveLength(1);
    expect(lint('@gflow/cli', "import { IMAGE_MODELS } from '@gflow/flow-facts';\n")).toHaveLength(1);
  });

  it('keeps the test kit out of product code and the driver out of the test kit', () => {
    for (const name of [
      '@gflow/errors',
      '@gflow/flow-sim',
      '@gflow/driver',
      '@gflow/core',
      '@gflow/mcp',
      '@gflow/cli',
      '@gflow/http',
      '@gflow/app',
    ]) {
      const messages = lint(name, "import { cli } from '@gflow/testkit/cli';\n");
      expect(messages, name).toHaveLength(1);
      expect(messages[0].message).toContain(`${name} may import @gflow/testkit only in its tests`);
      expect(messages[0].message).toContain('Why:');
    }
    // Test packages are test code throughout.
    expect(lint('@gflow/parity', "import { cli } from '@gflow/testkit/cli';\n")).toEqual([]);
    expect(lint('@gflow/tests-e2e', "import { useSandbox } from '@gflow/testkit/sandbox';\n")).toEqual([]);
    expect(lint('@gflow/testkit', "import { startFlowSim } from '@gflow/flow-sim';\n")).toEqual([]);
    expect(lint('@gflow/testkit', "import { launchSimBrowser } from '@gflow/flow-sim/testing';\n")).toEqual([]);
    expect(lint('@gflow/app', "import { launchSimBrowser } from '@gflow/flow-sim/testing';\n")[0]?.message).toContain(
      '@gflow/app may import @gflow/flow-sim/testing only in its tests',
    );
    expect(lint('@gflow/testkit', "import { openFlowSession } from '@gflow/driver';\n")[0]?.message).toContain(
      '@gflow/testkit may not import @gflow/driver',
    );
  });

  it('knows every package of the workspace', () => {
    for (const name of [
      '@gflow/errors',
      '@gflow/flow-facts',
      '@gflow/catalog',
      '@gflow/lease',
      '@gflow/driver',
      '@gflow/flow-sim',
      '@gflow/core',
      '@gflow/mcp',
      '@gflow/cli',
      '@gflow/app',
      '@gflow/http',
      '@gflow/testkit',
    ]) {
      expect(LAYERS[name], name).toBeDefined();
    }
    expect(layeringViolation('@gflow/unknown', '@gflow/errors')).toContain('not in the layering table');
  });
});

describe('adapters never read the catalog; only entry points exit', () => {
  const lintRule = (rule, options, code) =>
    new Linter({ configType: 'flat' }).verify(code, [
      { languageOptions: { ecmaVersion: 2024, sourceType: 'module' }, rules: { [rule]: ['error', options] } },
    ]);

  it('gflow.catalog in an adapter is refused with the way out', () => {
    const messages = lintRule(
      'no-restricted-syntax',
      NO_CATALOG,
      'const rows = gflow.catalog.projects.list({});\nconst ok = gflow.run("listProjects", {});\n',
    );
    expect(messages).toHaveLength(1);
    expect(messages[0].message).toContain('Adapters call core operations');
    expect(ADAPTERS).toEqual(expect.arrayContaining(['@gflow/cli', '@gflow/mcp', '@gflow/http', '@gflow/app']));
    expect(ADAPTERS).not.toContain('@gflow/core');
  });

  it('process.exit outside an entry point is refused', () => {
    const messages = lintRule(
      'no-restricted-properties',
      { object: 'process', property: 'exit' },
      'process.exit(1);\nprocess.exitCode = 2;\n',
    );
    expect(messages).toHaveLength(1);
  });
});
