// `socket.timeout(ms)`: emits whose ack callback gets an error first when no ack arrives in time.
import type { AckCallback, ServerSocket } from './server-socket.ts';

export class AckTimeoutError extends Error {
  constructor(message = 'operation has timed out') {
    super(message);
    this.name = 'AckTimeoutError';
  }
}

export class TimedEmitter {
  constructor(
    private readonly socket: ServerSocket,
    private readonly ms: number,
  ) {}

  emit(event: string, ...args: unknown[]): boolean {
    const callback = args.pop();
    if (typeof callback !== 'function') throw new TypeError('socket.timeout(ms).emit needs an ack callback');
    return this.socket.emitWithAckCallback(event, args, callback as AckCallback, this.ms);
  }

  emitWithAck(event: string, ...args: unknown[]): Promise<any> {
    return new Promise((resolve, reject) => {
      this.socket.emitWithAckCallback(
        event,
        args,
        (error: unknown, ...response: unknown[]) => (error ? reject(error) : resolve(response[0])),
        this.ms,
      );
    });
  }
}
