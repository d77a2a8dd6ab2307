/**
 * From a capture bundle (`gflow doctor --live --capture DIR`: the real app's anchors, masked, and
 * its read-only replies' shapes) to a simulator fixture, and the two checks a contract test runs
 * with it against the simulator: does a reply the simulator sends fit a captured shape, and does
 * the page show the anchors the capture found. A real-world shape becomes a contract test in one
 * step (scripts/captureToFixtures.ts, test/capturedFixtures.browser.test.ts); when the simulator
 * does not fit, its default or a variant changes, and the fixture names the variant it holds under.
 */

export const FIXTURE_FORMAT = 'gflow-flow-fixture/1';
const BUNDLE_FORMAT = 'gflow-flow-capture/1';

/** A shape as the bundle writes it (the driver's `Shape`: kinds, lengths and keys, never values). */
export type CapturedShape =
  | string
  | { readonly array: number; readonly items: readonly CapturedShape[] }
  | { readonly object: Readonly<Record<string, CapturedShape>> }
  | { readonly json: CapturedShape };

/** What one captured anchor says a page must show: the names in its selector and the ligatures in its HTML. */
export interface AnchorSignature {
  readonly probe: string;
  readonly anchor: string;
  readonly tags: readonly string[];
  readonly classes: readonly string[];
  readonly roles: readonly string[];
  readonly ligatures: readonly string[];
}

export interface CaptureFixture {
  readonly format: typeof FIXTURE_FORMAT;
  readonly name: string;
  readonly source: {
    readonly captured_at: string | null;
    readonly build_label: string | null;
    readonly arm: string | null;
  };
  /** The variant switches the simulator runs with for this fixture (variants.ts); `{}`: the defaults. */
  readonly variants: Readonly<Record<string, string>>;
  readonly replies: Readonly<Record<string, readonly CapturedShape[]>>;
  readonly anchors: readonly AnchorSignature[];
}

/**
 * What a committed fixture must never hold: the rule of core's capture bundle writer
 * (packages/core/src/health/captureBundle.ts, PRIVATE), restated because the simulator imports
 * nothing of gflow's. A bundle edited by hand is checked again here.
 */
const PRIVATE: readonly RegExp[] = [
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/,
  /(?:Expires|Signature|KeyName)=/i,
  /ya29\.|\bAIza[\w-]{20,}/,
  /\b(?:SAPISID|APISID|HSID|SSID|SID|OSID|__Secure-[\w-]+|__Host-[\w-]+)=/,
  /https?:\/\/[^\s"'<>]*\?/i,
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i,
];

/** The bundle's three files, as read. */
export interface CaptureBundle {
  readonly manifest: unknown;
  readonly anchors: unknown;
  readonly replies: unknown;
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The tags, classes and roles a selector names (`flow-prompt-box button.empty-chip`, `[role="radio"]`). */
function selectorNames(selector: string): Pick<AnchorSignature, 'tags' | 'classes' | 'roles'> {
  const css = selector.replace(/^xpath=.*/, '');
  const tags = [...css.matchAll(/(?:^|[\s>,(])([a-z][a-z0-9]*(?:-[a-z0-9]+)*)/g)].map((m) => m[1] ?? '');
  const classes = [...css.matchAll(/\.([A-Za-z_][\w-]*)/g)].map((m) => m[1] ?? '');
  const roles = [...css.matchAll(/\[role=["']?([\w-]+)["']?\]/g)].map((m) => m[1] ?? '');
  const unique = (list: string[]): string[] => [...new Set(list.filter((s) => s !== '' && s !== 'has'))].sort();
  return { tags: unique(tags), classes: unique(classes), roles: unique(roles) };
}

/** An anchor's signature: what its selector names, and the Material ligatures its captured HTML holds. */
export function signatureOf(probe: string, anchor: string, html: readonly string[]): AnchorSignature {
  const ligatures = new Set<string>();
  for (const h of html)
    for (const m of h.matchAll(/<mat-icon[^>]*>\s*([a-z][a-z0-9_]{0,40})\s*<\/mat-icon>/g)) ligatures.add(m[1] ?? '');
  return { probe, anchor, ...selectorNames(anchor), ligatures: [...ligatures].sort() };
}

/**
 * The fixture of a bundle: its reply shapes per rpc and its anchors' signatures. Refuses another
 * format and anything private (a bundle edited by hand), with the reason.
 */
export function fixtureFromBundle(
  bundle: CaptureBundle,
  name: string,
  variants: Readonly<Record<string, string>> = {},
): CaptureFixture {
  const manifest = record(bundle.manifest);
  if (manifest['format'] !== BUNDLE_FORMAT) throw new Error(`not a ${BUNDLE_FORMAT} bundle (manifest.json format)`);
  for (const [file, doc] of Object.entries(bundle)) {
    const json = JSON.stringify(doc);
    const hit = PRIVATE.find((p) => p.test(json));
    if (hit !== undefined)
      throw new Error(`${file} holds something private (${hit.source}); it cannot become a fixture`);
  }
  if (!/^[a-z0-9][a-z0-9-]{0,60}$/.test(name))
    throw new Error(`fixture name ${JSON.stringify(name)}: use a-z, 0-9 and -`);
  const replies: Record<string, CapturedShape[]> = {};
  for (const entry of (record(bundle.replies)['replies'] as unknown[] | undefined) ?? []) {
    const r = record(entry);
    const rpc = text(r['rpc']);
    if (rpc !== null && Array.isArray(r['shapes'])) replies[rpc] = r['shapes'] as CapturedShape[];
  }
  const anchors = ((record(bundle.anchors)['anchors'] as unknown[] | undefined) ?? []).map((entry) => {
    const a = record(entry);
    const html = Array.isArray(a['html'])
      ? (a['html'] as unknown[]).filter((h): h is string => typeof h === 'string')
      : [];
    return signatureOf(text(a['probe']) ?? '', text(a['anchor']) ?? '', html);
  });
  return {
    format: FIXTURE_FORMAT,
    name,
    source: {
      captured_at: text(manifest['captured_at']),
      build_label: text(manifest['build_label']),
      arm: text(manifest['arm']),
    },
    variants,
    replies,
    anchors,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function fitsKind(value: unknown, kind: string): boolean {
  switch (kind) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'int':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'string':
      return typeof value === 'string';
    case 'string:empty':
      return value === '';
    case 'string:uuid':
      return typeof value === 'string' && UUID.test(value);
    case 'string:url':
      return typeof value === 'string' && /^(?:https?:)?\/\//i.test(value);
    case 'object':
      return value !== null && typeof value === 'object';
    default:
      return false;
  }
}

/** The captured elements all have one shape: a list (its length follows the data). */
function isList(items: readonly CapturedShape[]): boolean {
  return items.every((item) => JSON.stringify(item) === JSON.stringify(items[0]));
}

/**
 * Whether a reply payload the simulator sent fits a captured shape: the same kinds and keys. An
 * array whose captured elements share one shape is a list (any length, every element fitting it);
 * one whose elements differ is a tuple (the same length, element by element). Plain `string`'s
 * kind is not compared (a uuid is a string too).
 */
export function fitsShape(value: unknown, shape: CapturedShape): boolean {
  if (typeof shape === 'string') return fitsKind(value, shape);
  if ('array' in shape) {
    if (!Array.isArray(value)) return false;
    // An empty captured list (or one cut at the depth limit) says nothing about its elements.
    const first = shape.items[0];
    if (first === undefined) return true;
    if (isList(shape.items)) return value.every((v) => fitsShape(v, first));
    if (shape.items.length === shape.array && value.length !== shape.array) return false;
    return shape.items.every((item, i) => i >= value.length || fitsShape(value[i], item));
  }
  if ('object' in shape) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const v = value as Record<string, unknown>;
    return Object.entries(shape.object).every(([key, s]) => key === '<key>' || (key in v && fitsShape(v[key], s)));
  }
  if (typeof value !== 'string') return false;
  try {
    return fitsShape(JSON.parse(value) as unknown, shape.json);
  } catch {
    return false;
  }
}
