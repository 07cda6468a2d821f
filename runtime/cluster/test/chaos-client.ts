// A web client of the chaos run (real socket.io-client), one per task: it connects to some node,
// subscribes to its task and sends the task's messages in turn. A message counts as
// ACKNOWLEDGED only when a node answered its user_message with ok; until then it is sent again,
// same id (the store is idempotent by message id), through whatever node is up, bounded. When
// its node goes away it reconnects elsewhere and subscribes again. It keeps every event it saw.
// It is the task's person too (issue 23): a step held for them (a click on an element the last
// page read does not show, e.g. after a dom index lost to a fault) is allowed once, the answer
// sent again through whatever node is up until one takes it (routed to the task's owner).
import { io, type Socket } from 'socket.io-client';

export interface ChaosClient {
  taskId: string;
  /** Message ids acknowledged, in the order they were sent. */
  acknowledged: string[];
  /** Messages that could not be acknowledged within the bound (not counted as lost). */
  unacknowledged: string[];
  /** Held steps (confirmationRequested) it allowed. */
  confirmed: number;
  /** Events of its task, as received (one list per connection: order is checked within each). */
  events: Array<Array<{ id: string; timestamp: number; type: string; seq?: number; url?: string }>>;
  reconnects: number;
  done: Promise<void>;
  close(): void;
}

export function startChaosClient(options: {
  taskId: string;
  token: string;
  messages: Array<{ id: string; content: string; delayMs: number }>;
  pickUrl: () => string | undefined;
  /** How long one message may take to be acknowledged (default 40 s). */
  ackBoundMs?: number;
}): ChaosClient {
  const { taskId } = options;
  const client: ChaosClient = {
    taskId,
    acknowledged: [],
    unacknowledged: [],
    confirmed: 0,
    events: [],
    reconnects: 0,
    done: Promise.resolve(),
    close,
  };
  let socket: Socket | undefined;
  let closed = false;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  let connecting: Promise<Socket> | undefined;
  const connected = (): Promise<Socket> => (connecting ??= connect().finally(() => (connecting = undefined)));

  async function connect(): Promise<Socket> {
    for (;;) {
      if (closed) throw new Error('closed');
      if (socket?.connected) return socket;
      const url = options.pickUrl();
      if (!url) {
        await sleep(200);
        continue;
      }
      const next = io(`${url}/mimo`, {
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        auth: { clientType: 'frontend', token: options.token },
      });
      const ok = await new Promise<boolean>((resolve) => {
        next.once('connect', () => resolve(true));
        next.once('connect_error', () => resolve(false));
        setTimeout(() => resolve(false), 3_000);
      });
      if (!ok) {
        next.close();
        await sleep(200);
        continue;
      }
      const seen: ChaosClient['events'][number] = [];
      client.events.push(seen);
      next.on('frontend_event', (e: any) => {
        if (e?.taskId !== taskId) return;
        seen.push({ id: e.id, timestamp: e.timestamp, type: e.event?.type, seq: e.seq, url });
        if (e.event?.type === 'confirmationRequested') void confirm(String(e.event.requestId));
      });
      next.on('disconnect', () => {
        if (closed) return;
        client.reconnects++;
        setTimeout(() => void connected().catch(() => undefined), 200); // keep watching its task from another node
      });
      await next
        .timeout(3_000)
        .emitWithAck('frontend_message', {
          v: 1,
          type: 'subscribe_task',
          id: `sub-${taskId}-${Date.now()}`,
          timestamp: Date.now(),
          taskId,
        })
        .catch(() => undefined);
      socket?.close();
      socket = next;
      return next;
    }
  }

  async function sendOne(message: { id: string; content: string }): Promise<boolean> {
    const started = Date.now();
    const timestamp = started; // a retry is the same message, byte for byte
    while (!closed && Date.now() - started < (options.ackBoundMs ?? 40_000)) {
      const s = await connected().catch(() => undefined);
      if (!s) return false;
      try {
        const ack = await s.timeout(15_000).emitWithAck('frontend_message', {
          v: 1,
          type: 'user_message',
          id: message.id,
          timestamp,
          taskId,
          content: message.content,
        });
        if (ack?.ok) return true;
      } catch {
        // no answer in time (its node died?): the same message again, maybe through another node
      }
      await sleep(300);
    }
    return false;
  }

  /** Requests being answered or answered (a replay to a new subscription shows them again). */
  const answering = new Set<string>();
  async function confirm(requestId: string): Promise<void> {
    if (answering.has(requestId)) return;
    answering.add(requestId);
    for (let attempt = 0; attempt < 20 && !closed; attempt++) {
      const s = await connected().catch(() => undefined);
      if (!s) break;
      try {
        const ack = await s.timeout(10_000).emitWithAck('frontend_message', {
          v: 1,
          type: 'confirmation_answer',
          id: `confirm-${requestId}-${attempt}`,
          timestamp: Date.now(),
          taskId,
          requestId,
          decision: 'allow_once',
        });
        if (ack?.ok) return void client.confirmed++;
        // Not waiting any more (answered, or its owner died and the replayed turn holds the step anew).
        if (ack?.error?.code !== 'UNAVAILABLE') return;
      } catch {
        // no answer in time: again, maybe through another node
      }
      await sleep(300);
    }
    answering.delete(requestId); // seen again (a new subscription's replay): answered again
  }

  client.done = (async () => {
    for (const message of options.messages) {
      await sleep(message.delayMs);
      if (closed) return;
      if (await sendOne(message)) client.acknowledged.push(message.id);
      else client.unacknowledged.push(message.id);
    }
  })();

  function close(): void {
    closed = true;
    socket?.close();
  }
  return client;
}
