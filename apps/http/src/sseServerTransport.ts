import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';

const encoder = new TextEncoder();

/**
 * The deprecated HTTP+SSE transport (protocol 2024-11-05), server side.
 * SDK v2 removed its server transport, and the v1 copy is written against
 * Node's `ServerResponse`; the wire is small enough to implement on web
 * streams: GET opens an event stream whose first event (`endpoint`) names
 * the URL to POST messages to; every server message is an `event: message`.
 */
export class SseServerTransport implements Transport {
  readonly sessionId = randomUUID();
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #keepAlive: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly messagesPath: string,
    private readonly keepAliveMs = 15_000,
  ) {}

  /** The event-stream response for the GET that opened the session. */
  response(): Response {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
        this.#write(`event: endpoint\ndata: ${this.messagesPath}?session_id=${this.sessionId}\n\n`);
        if (this.keepAliveMs > 0) {
          this.#keepAlive = setInterval(() => this.#write(': keep-alive\n\n'), this.keepAliveMs);
          this.#keepAlive.unref();
        }
      },
      cancel: () => void this.close(),
    });
    return new Response(stream, {
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
      },
    });
  }

  /** A message POSTed to /messages/?session_id=… */
  receive(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error('The SSE stream is closed.');
    this.#write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    try {
      this.#controller?.close();
    } catch {
      // already closed by the client
    }
    this.onclose?.();
  }

  #write(frame: string): void {
    try {
      this.#controller?.enqueue(encoder.encode(frame));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
