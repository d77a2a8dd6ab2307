import { type GflowLike, type TaskListen, taskListenMessages } from '@gflow/mcp';

/** A comment frame now and then, so a proxy does not close a quiet stream (the SDK's listen streams keep the same pace). */
const KEEPALIVE_MS = 15_000;

/**
 * A task-only `subscriptions/listen` served as the SDK serves a listen stream: one SSE response
 * whose events are the subscription's JSON-RPC messages (taskListenMessages), kept alive by
 * comments, ended by its closing result or by the client going away.
 */
export function taskListenResponse(gflow: GflowLike, listen: TaskListen, clientGone: AbortSignal): Response {
  const stop = new AbortController();
  const onGone = (): void => stop.abort();
  clientGone.addEventListener('abort', onGone, { once: true });
  const encoder = new TextEncoder();
  let keepalive: NodeJS.Timeout | undefined;
  const end = (): void => {
    clearInterval(keepalive);
    clientGone.removeEventListener('abort', onGone);
    stop.abort();
  };
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      keepalive = setInterval(() => controller.enqueue(encoder.encode(': keepalive\n\n')), KEEPALIVE_MS);
      keepalive.unref();
      try {
        for await (const message of taskListenMessages(gflow, listen, stop.signal))
          controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
        controller.close();
      } catch (error) {
        controller.error(error);
      } finally {
        end();
      }
    },
    cancel: end,
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  });
}
