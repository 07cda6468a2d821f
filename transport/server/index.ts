export { createSocketServer, type SocketServer, type SocketServerOptions } from './socket-server.ts';
export { Namespace, type Middleware } from './namespace.ts';
export { ServerSocket, AckTimeoutError } from './server-socket.ts';
export { BroadcastOperator } from './broadcast-operator.ts';
export type { DisconnectReason, Handshake, ConnectError, ListenerErrorHandler } from './socket-types.ts';
export { EngineErrorCode, engineErrorMessages } from './engine-errors.ts';
