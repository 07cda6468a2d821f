// Socket.IO across nodes on PostgreSQL LISTEN/NOTIFY, in order.
//
// The cluster logic is socket.io-adapter's own `ClusterAdapterWithHeartbeat` (the base class of
// the official @socket.io/postgres-adapter): same messages, same heartbeat, same broadcast-with-
// ack protocol. Only the pub/sub under it is ours, for one reason: order. The official
// PubSubClient (a) publishes through any pool connection, so two broadcasts in a row can be
// NOTIFYed in either order, and (b) fetches a payload above NOTIFY's 8000-byte limit from its
// attachments table *asynchronously* while later small notifications are delivered at once, so a
// big event (a snapshot, a tool result) overtakes or is overtaken by the next. A chat that streams
// deltas and tool steps needs them in order on every node. Here:
//   - one dedicated publishing connection, one NOTIFY at a time, in call order;
//   - one LISTEN connection whose notifications go through a FIFO: an attachment is read before
//     the next notification is handled.
// The channel name (`socket.io#<nsp>`), JSON payloads and the `socket_io_attachments` table are
// the official adapter's, msgpack for attachments as well, so the two could share a database.
import { encode, decode } from '@msgpack/msgpack';
import pg from 'pg';
import {
  Adapter,
  ClusterAdapterWithHeartbeat,
  MessageType,
  type BroadcastOptions,
  type ClusterMessage,
  type ClusterResponse,
} from 'socket.io-adapter';

export interface OrderedPubSubOptions {
  connectionString: string;
  channelPrefix?: string;
  tableName?: string;
  /** Payloads above this many bytes go through the attachments table (NOTIFY's limit is 8000). */
  payloadThreshold?: number;
  onError?: (error: unknown) => void;
  heartbeatIntervalMs?: number;
  heartbeatTimeoutMs?: number;
}

type Message = (ClusterMessage | ClusterResponse) & { nsp: string; uid: string };

function hasBinary(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return true;
  if (Array.isArray(value)) return value.some(hasBinary);
  return Object.values(value).some(hasBinary);
}

export interface OrderedPubSub {
  /** The socket.io adapter factory for `nsp.setAdapter()`. */
  adapterFor(nsp: any): ClusterAdapterWithHeartbeat;
  /** Resolves once LISTEN is in place on every channel added so far. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function createOrderedPostgresPubSub(options: OrderedPubSubOptions): OrderedPubSub {
  const prefix = options.channelPrefix ?? 'socket.io';
  const table = options.tableName ?? 'socket_io_attachments';
  const threshold = options.payloadThreshold ?? 7900;
  const onError = options.onError ?? (() => undefined);
  const adapters = new Map<string, OrderedAdapter>();
  const channels = new Set<string>();
  let publisher!: pg.Client;
  let listener!: pg.Client;
  let publishChain: Promise<unknown> = Promise.resolve();
  let receiveChain: Promise<unknown> = Promise.resolve();
  let closed = false;
  let reconnectTimer: NodeJS.Timeout | undefined;

  function onNotification(notification: pg.Notification): void {
    const payload = notification.payload ?? '';
    const from = publisher;
    // FIFO: each notification is handled after the previous one, attachments included.
    receiveChain = receiveChain.then(async () => {
      try {
        let message = JSON.parse(payload) as Message & { attachmentId?: string };
        if (message.attachmentId) {
          const row = await from.query<{ payload: Buffer }>(`SELECT payload FROM ${table} WHERE id = $1`, [
            message.attachmentId,
          ]);
          if (!row.rows[0]) return;
          message = decode(row.rows[0].payload) as Message;
        }
        adapters.get(message.nsp)?.onMessage(message as never);
      } catch (error) {
        onError(error);
      }
    });
  }

  /**
   * Both connections, LISTEN on every channel. When either ends (the server restarted, the
   * network dropped), both are made again after 1-2 s; what was published meanwhile is missed,
   * as with the official adapter.
   */
  function connect(): Promise<void> {
    const pub = new pg.Client({ connectionString: options.connectionString, application_name: 'mimo-pubsub' });
    const sub = new pg.Client({ connectionString: options.connectionString, application_name: 'mimo-pubsub' });
    publisher = pub;
    listener = sub;
    for (const client of [pub, sub]) {
      client.on('error', onError);
      client.once('end', () => scheduleReconnect());
    }
    sub.on('notification', onNotification);
    return Promise.all([pub.connect(), sub.connect()]).then(async () => {
      for (const channel of channels) await sub.query(`LISTEN "${channel}"`);
    });
  }

  function scheduleReconnect(): void {
    if (closed || reconnectTimer) return;
    void publisher.end().catch(() => undefined);
    void listener.end().catch(() => undefined);
    reconnectTimer = setTimeout(
      () => {
        reconnectTimer = undefined;
        connected = connect();
        connected.catch((error) => {
          onError(error);
          scheduleReconnect();
        });
      },
      1_000 + Math.floor(Math.random() * 1_000),
    );
  }

  let connected = connect();
  let listening: Promise<unknown> = connected;

  function publish(message: Message): Promise<void> {
    const job = publishChain.then(async () => {
      if (closed) return;
      await connected;
      const channel = `${prefix}#${message.nsp}`;
      const binary =
        (message.type === MessageType.BROADCAST ||
          message.type === MessageType.BROADCAST_ACK ||
          message.type === MessageType.SERVER_SIDE_EMIT ||
          message.type === MessageType.SERVER_SIDE_EMIT_RESPONSE) &&
        hasBinary(message);
      const text = binary ? '' : JSON.stringify(message);
      if (!binary && Buffer.byteLength(text) <= threshold) {
        await publisher.query('SELECT pg_notify($1, $2)', [channel, text]);
        return;
      }
      const inserted = await publisher.query<{ id: string }>(
        `INSERT INTO ${table} (payload) VALUES ($1) RETURNING id`,
        [Buffer.from(encode(message))],
      );
      await publisher.query('SELECT pg_notify($1, $2)', [
        channel,
        JSON.stringify({ uid: message.uid, type: message.type, nsp: message.nsp, attachmentId: inserted.rows[0]!.id }),
      ]);
    });
    publishChain = job.catch(onError);
    return job;
  }

  class OrderedAdapter extends ClusterAdapterWithHeartbeat {
    constructor(nsp: any) {
      // socket.io's defaults are 5 s / 10 s; a dead node drops out of the ack counts sooner here.
      super(nsp, {
        heartbeatInterval: options.heartbeatIntervalMs ?? 2_000,
        heartbeatTimeout: options.heartbeatTimeoutMs ?? 5_000,
      });
    }
    /**
     * ClusterAdapter delivers a broadcast to this node's own sockets only once its publish is done
     * (for connection-state-recovery offsets, not used here): behind a slow NOTIFY queue a socket
     * would get a task's events seconds late, after one that joined the room meanwhile, or after a
     * replay sent to it directly (a step shown twice). Here this node's sockets get it at once, in
     * emit order as on one node; the other nodes through the ordered publish chain.
     */
    override broadcast(packet: any, opts: BroadcastOptions): Promise<void> {
      if (!opts.flags?.local)
        void this.publishAndReturnOffset({
          type: MessageType.BROADCAST,
          data: { packet, opts: { rooms: [...opts.rooms], except: [...(opts.except ?? [])], flags: opts.flags ?? {} } },
        }).catch(onError);
      Adapter.prototype.broadcast.call(this, packet, opts);
      return Promise.resolve();
    }
    protected override doPublish(message: ClusterMessage): Promise<string> {
      return publish(message as Message).then(() => '');
    }
    protected override doPublishResponse(_requesterUid: string, response: ClusterResponse): Promise<void> {
      return publish(response as Message);
    }
  }

  // Attachments older than a minute have been read by every live node.
  const cleanup = setInterval(() => {
    void publisher.query(`DELETE FROM ${table} WHERE created_at < now() - interval '60 seconds'`).catch(onError);
  }, 30_000);
  cleanup.unref();

  return {
    adapterFor(nsp) {
      const adapter = new OrderedAdapter(nsp);
      adapters.set(nsp.name, adapter);
      const channel = `${prefix}#${nsp.name}`;
      channels.add(channel);
      listening = Promise.all([listening, connected.then(() => listener.query(`LISTEN "${channel}"`))]);
      return adapter;
    },
    async ready() {
      await listening;
    },
    async close() {
      if (closed) return;
      for (const adapter of adapters.values()) adapter.close();
      await publishChain; // ADAPTER_CLOSE goes out first
      closed = true;
      clearTimeout(reconnectTimer);
      clearInterval(cleanup);
      await Promise.allSettled([publisher.end(), listener.end()]);
    },
  };
}
