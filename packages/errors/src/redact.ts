import os from 'node:os';

/**
 * Redaction of secrets from text and objects before they reach a log, an
 * incident bundle, an error envelope or the catalog: bearer, OAuth and reCAPTCHA tokens,
 * cookies, batchexecute's CSRF fields, signed URL query strings and the user's home directory.
 */
export interface RedactOptions {
  /** Directories to replace by a placeholder (the home directory is always included). */
  readonly paths?: readonly string[];
}

const COOKIE_NAMES =
  '(?:__Secure-[\\w-]+|__Host-[\\w-]+|SAPISID|APISID|HSID|SSID|SID|OSID|NID|SIDCC|LSID|ACCOUNT_CHOOSER|SMSV|AEC|[\\w-]*session[\\w-]*|[\\w-]*token[\\w-]*)';

/** A whole name that is a cookie's or a token's. */
const COOKIE_NAME = new RegExp(`^${COOKIE_NAMES}$`, 'i');
/** A query string that signs or expires its URL. */
const SIGNED_QUERY = /Signature|Expires|X-Goog-|GoogleAccessId|sig=|token=|key=/i;

/** One row of the redaction table: what it removes, the pattern, what it leaves, and why. */
export interface RedactionRule {
  readonly name: string;
  readonly pattern: RegExp;
  readonly replacement: string | ((...groups: string[]) => string);
}

/**
 * The one redaction table: every log line, error detail, incident bundle and stored error goes
 * through these rows in order (then the local paths). A secret gflow meets gets a row here, with
 * the body shape it was seen in named in redact.test.ts.
 */
export const REDACTION_RULES: readonly RedactionRule[] = [
  // Authorization headers and bare bearer tokens.
  {
    name: 'bearer',
    pattern: /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi,
    replacement: (_m, scheme) => `${scheme} <redacted:token>`,
  },
  // Google OAuth access tokens and refresh tokens.
  { name: 'oauth-access', pattern: /\bya29\.[A-Za-z0-9._-]+/g, replacement: '<redacted:token>' },
  { name: 'oauth-refresh', pattern: /\b1\/\/[A-Za-z0-9._-]{20,}/g, replacement: '<redacted:token>' },
  // reCAPTCHA (Enterprise) tokens: minted by Flow's page before a submit and sent inside the
  // batchexecute inner JSON as `[TOKEN, 1]` (flow-captures §10) or as recaptchaContext.token.
  { name: 'recaptcha', pattern: /\b0[3c]A[A-Za-z0-9_-]{40,}/g, replacement: '<redacted:recaptcha>' },
  // Cookie / Set-Cookie header values (whole value).
  {
    name: 'cookie-header',
    pattern: /\b((?:Set-)?Cookie)\s*[:=]\s*[^\r\n]+/gi,
    replacement: (_m, name) => `${name}: <redacted:cookie>`,
  },
  // name=value pairs of known cookie and token names. A pair starts where a run of name
  // characters starts (not at every \b: inside "x-x-x…" each position is one, and the rule
  // rescanned the run from each; 20 KB took 5 s), and the name is judged once it is matched.
  {
    name: 'cookie-pair',
    pattern: /(?<![\w-])([\w-]+)=([^;\s&"',]+)/g,
    replacement: (pair, name) => (COOKIE_NAME.test(name) ? `${name}=<redacted:cookie>` : pair),
  },
  // batchexecute form fields: `at=` (the page's CSRF token) and `f.sid=` (the session), in a body
  // `f.req=…&at=…` or a query string, raw or URL-encoded.
  {
    name: 'batchexecute-field',
    pattern: /(^|[?&\s"'])(at|f\.sid)=[^&\s"']+/g,
    replacement: (_m, lead, name) => `${lead}${name}=<redacted:csrf>`,
  },
  // JSON-ish "access_token": "…" members.
  {
    name: 'json-secret',
    pattern:
      /("(?:access_token|id_token|refresh_token|token|authorization|cookie|password|secret|api_key|apiKey)"\s*:\s*)"[^"]*"/gi,
    replacement: (_m, lead) => `${lead}"<redacted:secret>"`,
  },
  // Signed URLs: drop the whole query string when it carries a signature or expiry (judged once
  // the query is matched: searching for the markers inside the pattern rescanned the rest of the
  // text from every URL).
  {
    name: 'signed-url',
    pattern: /(https?:\/\/[^\s?#"'<>]+)\?([^\s#"'<>]*)/gi,
    replacement: (url, base, query) => (SIGNED_QUERY.test(query) ? `${base}?<redacted:signed-url>` : url),
  },
  // Any other long opaque string (a token of a shape not listed above): 200+ base64url characters
  // in one run, letters and digits mixed. Flow's ids are UUIDs and its prompts have spaces, so
  // neither is caught.
  // (No lookahead: from every boundary of a long "x-x-x…" run it would rescan the run.)
  {
    name: 'opaque-token',
    pattern: /[A-Za-z0-9_-]{200,}/g,
    replacement: (run) => (/\d/.test(run) && /[A-Za-z]/.test(run) ? '<redacted:token>' : run),
  },
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
  for (const { pattern, replacement } of REDACTION_RULES) {
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
