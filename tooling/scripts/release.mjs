#!/usr/bin/env node
// One version for everything gflow publishes: the library set (every package under packages/ that
// is not private: @gflow/core and what it needs at run time), the gflow binary (@gflow/app) and the
// MCP registry entry (server.json). CHANGELOG.md has a section per version.
//   node tooling/scripts/release.mjs check              every version equal, CHANGELOG has it
//   node tooling/scripts/release.mjs version X.Y.Z      sets X.Y.Z everywhere and turns
//                                                      CHANGELOG's "## Unreleased" into "## X.Y.Z (date)"
// `npm test` runs the check (tooling/test/release.test.js); the packs (packLibs.mjs, the app's
// pack.mjs) resolve `workspace:` to this one version, so a tarball's internal ranges always match.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishedPackages } from './packLibs.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** Every file that carries the version: `{ file, version, set(version) }` (file relative to the root). */
export function versionedFiles(root = repoRoot) {
  const manifests = [
    ...publishedPackages(root).map(({ dir }) => path.join(dir, 'package.json')),
    path.join(root, 'apps', 'app', 'package.json'),
  ];
  const entries = manifests.map((file) => {
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
    return {
      file: path.relative(root, file),
      name: pkg.name,
      version: pkg.version,
      set: (version) => fs.writeFileSync(file, `${JSON.stringify({ ...pkg, version }, null, 2)}\n`),
    };
  });
  const serverFile = path.join(root, 'server.json');
  if (fs.existsSync(serverFile)) {
    const server = JSON.parse(fs.readFileSync(serverFile, 'utf8'));
    entries.push({
      file: 'server.json',
      name: server.name,
      version: server.version,
      set: (version) => {
        server.version = version;
        for (const p of server.packages ?? []) if (p.identifier?.startsWith('@gflow/')) p.version = version;
        fs.writeFileSync(serverFile, `${JSON.stringify(server, null, 2)}\n`);
      },
    });
    for (const p of server.packages ?? [])
      if (p.identifier?.startsWith('@gflow/'))
        entries.push({
          file: 'server.json',
          name: `${server.name} → ${p.identifier}`,
          version: p.version,
          set: () => {},
        });
  }
  return entries;
}

/** The versions CHANGELOG.md has a section for (`## 1.2.3` or `## 1.2.3 (2026-12-02)`), newest first, and whether it has "## Unreleased". */
export function changelogVersions(text) {
  const versions = [...text.matchAll(/^## (\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)(?:\s|$)/gm)].map((m) => m[1]);
  return { versions, unreleased: /^## Unreleased[ \t]*$/m.test(text) };
}

/** What is wrong with the versions and the changelog; empty when all is well. */
export function releaseProblems(root = repoRoot) {
  const problems = [];
  const entries = versionedFiles(root);
  const versions = new Set(entries.map((e) => e.version));
  if (versions.size !== 1)
    problems.push(
      `one version for every published package: found ${entries.map((e) => `${e.name} ${e.version} (${e.file})`).join(', ')}`,
    );
  const version = entries[0]?.version;
  const changelogFile = path.join(root, 'CHANGELOG.md');
  if (!fs.existsSync(changelogFile)) problems.push('CHANGELOG.md is missing');
  else {
    const { versions: listed } = changelogVersions(fs.readFileSync(changelogFile, 'utf8'));
    if (version && !listed.includes(version)) problems.push(`CHANGELOG.md has no "## ${version}" section`);
    if (version && listed[0] !== version)
      problems.push(`CHANGELOG.md's newest version is ${listed[0] ?? 'none'}, the packages' is ${version}`);
  }
  return problems;
}

/** Sets `version` everywhere and opens its CHANGELOG section from "## Unreleased". */
export function setVersion(version, root = repoRoot, today = new Date().toISOString().slice(0, 10)) {
  if (!SEMVER.test(version)) throw new Error(`${version} is not a version (X.Y.Z or X.Y.Z-tag)`);
  const changelogFile = path.join(root, 'CHANGELOG.md');
  const text = fs.readFileSync(changelogFile, 'utf8');
  const { versions, unreleased } = changelogVersions(text);
  if (versions.includes(version)) throw new Error(`CHANGELOG.md already has ${version}`);
  if (!unreleased) throw new Error('CHANGELOG.md has no "## Unreleased" section to release');
  const section = /^## Unreleased\s*\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text);
  if (!section || !section[1].trim())
    throw new Error('"## Unreleased" in CHANGELOG.md is empty: say what changed first');
  fs.writeFileSync(changelogFile, text.replace(/^## Unreleased[ \t]*$/m, `## Unreleased\n\n## ${version} (${today})`));
  for (const entry of versionedFiles(root)) entry.set(version);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [command, version] = process.argv.slice(2);
  try {
    if (command === 'check') {
      const problems = releaseProblems();
      for (const p of problems) process.stderr.write(`[release] ${p}\n`);
      if (problems.length) process.exit(1);
      process.stderr.write(`[release] one version: ${versionedFiles()[0].version}\n`);
    } else if (command === 'version' && version) {
      setVersion(version);
      process.stderr.write(
        `[release] ${version} set in ${[...new Set(versionedFiles().map((e) => e.file))].join(', ')}\n`,
      );
    } else {
      process.stderr.write('usage: node tooling/scripts/release.mjs check | version X.Y.Z\n');
      process.exit(2);
    }
  } catch (error) {
    process.stderr.write(`[release] ${error.message}\n`);
    process.exit(1);
  }
}
