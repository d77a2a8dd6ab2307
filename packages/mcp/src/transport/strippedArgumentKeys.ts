import { PROTOTYPE_KEYS } from '@gflow/core/surfaces';

/** The request `_meta` member that carries the argument keys the SDK would drop (see below). */
export const STRIPPED_KEYS_META = 'dev.gflow/stripped_argument_keys';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The SDK validates a tools/call request with zod, and zod drops an own `__proto__` member from
 * what it parses, in silence: `{"prompt": "…", "__proto__": {…}}` reached the tool as
 * `{prompt}` and the generation spent (issue 40), where any other unknown argument gets the 400
 * bad-parameter envelope. So the transports, which see each message as JSON before the SDK does,
 * note such keys in the request's `_meta` (in place), and the tool funnels put them back
 * (restoreStrippedArgumentKeys) for core's unknown-argument refusal. Returns whether it noted any.
 */
export function noteStrippedArgumentKeys(message: Record<string, unknown>): boolean {
  const params = message['params'];
  if (message['method'] !== 'tools/call' || !isObject(params)) return false;
  const args = params['arguments'];
  if (!isObject(args)) return false;
  const stripped = Object.keys(args).filter((key) => key === '__proto__');
  if (stripped.length === 0) return false;
  const meta = isObject(params['_meta']) ? params['_meta'] : {};
  params['_meta'] = { ...meta, [STRIPPED_KEYS_META]: stripped };
  return true;
}

/**
 * The tool's arguments with the keys a transport noted put back as own members, so the
 * unknown-argument checks see and refuse them by name. Arguments without a note are returned as is.
 */
export function restoreStrippedArgumentKeys(
  args: unknown,
  meta: Readonly<Record<string, unknown>> | undefined,
): unknown {
  const noted = meta?.[STRIPPED_KEYS_META];
  if (!Array.isArray(noted)) return args;
  const keys = noted.filter((key): key is string => typeof key === 'string' && PROTOTYPE_KEYS.includes(key));
  if (keys.length === 0) return args;
  const restored: Record<string, unknown> = { ...(isObject(args) ? args : {}) };
  for (const key of keys) Object.defineProperty(restored, key, { value: null, enumerable: true, configurable: true });
  return restored;
}
