import os from 'node:os';

/**
 * Redaction of secrets from text and objects before they reach a log, an
 * incident bundle, an error envelope or the catalog: bearer and OAuth tokens,
 * cookies, signed URL query strings and the user's home directory.
 */
export interface RedactOptions {
  /** Directories to replace by a placeholder (the home directory is always included). */
  readonly paths?: readonly string[];
}

const COOKIE_NAMES =
  '(?:__Secure-[\\w-]+|__Host-[\\w-]+|SAPISID|APISID|HSID|SSID|SID|OSID|NID|SIDCC|LSID|ACCOUNT_CHOOSER|SMSV|AEC|[\\w-]*session[\\w-]*|[\\w-]*token[\\w-]*)';

const RULES: ReadonlyArray<readonly [RegExp, string | ((...groups: string[]) => string)]> = [
  // Authorization headers and bare bearer tokens.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi, (_m, scheme) => `${scheme} <redacted:token>`],
  // Google OAuth access tokens and refresh tokens.
  [/\bya29\.[A-Za-z0-9._-]+/g, '<redacted:token>'],
  [/\b1\/\/[A-Za-z0-9._-]{20,}/g, '<redacted:token>'],
  // Cookie / Set-Cookie header values (whole value).
  [/\b((?:Set-)?Cookie)\s*[:=]\s*[^\r\n]+/gi, (_m, name) => `${name}: <redacted:cookie>`],
  // name=value pairs of known cookie and token names.
  [new RegExp(`\\b(${COOKIE_NAMES})=([^;\\s&"',]+)`, 'gi'), (_m, name) => `${name}=<redacted:cookie>`],
  // JSON-ish "access_token": "…" members.
  [
    /("(?:access_token|id_token|refresh_token|token|authorization|cookie|password|secret|api_key|apiKey)"\s*:\s*)"[^"]*"/gi,
    (_m, lead) => `${lead}"<redacted:secret>"`,
  ],
  // Signed URLs: drop the whole query string when it carries a signature or expiry.
  [
    /(https?:\/\/[^\s?#"'<>]+)\?[^\s#"'<>]*(?:Signature|Expires|X-Goog-|GoogleAccessId|sig=|token=|key=)[^\s#"'<>]*/gi,
    (_m, base) => `${base}?<redacted:signed-url>`,
  ],
];

const SECRET_KEYS =
  /^(authorization|cookie|set-cookie|access_?token|id_?token|refresh_?token|token|password|secret|api_?key|sapisid|.*_token|bearer)$/i;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function pathRules(options: RedactOptions): Array<readonly [RegExp, string]> {
  const home = os.homedir();
  const entries: Array<readonly [string, string]> = [
    ...(options.paths ?? []).map((p) => [p, '<redacted:path>'] as const),
    ...(home && home !== '/' ? [[home, '~'] as const] : []),
  ];
  // Longest first, so a path inside the home is replaced before the home itself.
  return entries
    .filter(([p]) => p.length > 1)
    .sort((a, b) => b[0].length - a[0].length)
    .map(([p, placeholder]) => [new RegExp(escapeRegExp(p), 'g'), placeholder] as const);
}

/** Redacts secrets and local paths from a string. */
export function redactText(text: string, options: RedactOptions = {}): string {
  let out = text;
  for (const [pattern, replacement] of RULES) {
    out = out.replace(pattern, replacement as (substring: string, ...args: string[]) => string);
  }
  for (const [pattern, replacement] of pathRules(options)) out = out.replace(pattern, replacement);
  return out;
}

/**
 * Deep-copies a JSON-like value with secrets removed: string leaves are
 * redacted, members with secret-looking names are replaced whole. Cycles are
 * cut, and the depth is bounded.
 */
export function redact<T>(value: T, options: RedactOptions = {}): T {
  const seen = new WeakSet<object>();
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return redactText(v, options);
    if (v === null || typeof v !== 'object') return v;
    if (depth > 32 || seen.has(v)) return '<redacted:depth>';
    seen.add(v);
    if (Array.isArray(v)) return v.map((item) => walk(item, depth + 1));
    if (v instanceof Error) return { name: v.name, message: redactText(v.message, options) };
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v)) {
      out[key] =
        SECRET_KEYS.test(key) && item !== null && item !== undefined && item !== ''
          ? '<redacted:secret>'
          : walk(item, depth + 1);
    }
    return out;
  };
  return walk(value, 0) as T;
}

/** Truncates to at most `max` characters (with an ellipsis) after redaction. */
export function redactAndClip(text: string, max = 500, options: RedactOptions = {}): string {
  const clean = redactText(text, options);
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}
