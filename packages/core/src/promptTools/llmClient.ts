import { ConfigurationError, NetworkError, WireFormatError } from '@gflow/errors';

export interface LlmEndpoint {
  readonly baseUrl: string;
  readonly apiKey?: string | undefined;
  readonly model: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Checks the endpoint before anything is sent: https, or http on loopback
 * only; no credentials inside the URL (they would leak into logs).
 */
export function checkLlmEndpoint(baseUrl: string): URL {
  const url = new URL(baseUrl);
  if (url.username || url.password) {
    throw new ConfigurationError(
      'GFLOW_CLI_LLM_BASE_URL must not carry credentials; put the key in GFLOW_CLI_LLM_API_KEY.',
      { extensions: { setting: 'GFLOW_CLI_LLM_BASE_URL' } },
    );
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return url;
  throw new ConfigurationError('GFLOW_CLI_LLM_BASE_URL must be https (plain http only on loopback).', {
    extensions: { setting: 'GFLOW_CLI_LLM_BASE_URL' },
  });
}

/**
 * One chat completion: a system instruction and the user's prompt in, the
 * assistant's text out. No redirects are followed; 30 s at most.
 */
export async function chatComplete(
  endpoint: LlmEndpoint,
  system: string,
  user: string,
  signal?: AbortSignal,
): Promise<string> {
  const base = checkLlmEndpoint(endpoint.baseUrl);
  const target = new URL(`${base.pathname.replace(/\/$/, '')}/chat/completions`, base);
  const timeout = AbortSignal.timeout(30_000);
  let response: Response;
  try {
    response = await fetch(target, {
      method: 'POST',
      redirect: 'error',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      headers: {
        'content-type': 'application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: endpoint.model,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        temperature: 0.7,
      }),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new NetworkError('The prompt-tool endpoint could not be reached (or redirected, which gflow refuses).', {
      cause: error,
      extensions: { setting: 'GFLOW_CLI_LLM_BASE_URL' },
    });
  }
  if (!response.ok) {
    throw new NetworkError(`The prompt-tool endpoint answered HTTP ${response.status}.`, {
      retryable: response.status === 429 || response.status >= 500,
    });
  }
  const body = (await response.json().catch(() => null)) as {
    choices?: Array<{ message?: { content?: unknown } }>;
  } | null;
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim())
    throw new WireFormatError('The prompt-tool endpoint returned no message content.');
  return content.trim();
}

/** The endpoint from settings, or undefined when none is configured (tools then use templates). */
export function llmEndpointOf(settings: {
  llmBaseUrl?: string | undefined;
  llmApiKey?: string | undefined;
  llmModel?: string | undefined;
}): LlmEndpoint | undefined {
  if (!settings.llmBaseUrl) return undefined;
  checkLlmEndpoint(settings.llmBaseUrl);
  return { baseUrl: settings.llmBaseUrl, apiKey: settings.llmApiKey, model: settings.llmModel ?? 'gemini-2.5-flash' };
}
