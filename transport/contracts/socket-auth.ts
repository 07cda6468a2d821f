// The Socket.IO CONNECT auth payload on namespace /mimo (seed 001 §3.1, §3.2).
import * as v from 'valibot';
import { ClientIdSchema } from './ids.ts';

export const MIMO_NAMESPACE = '/mimo';

export const ClientTypeSchema = v.picklist(['frontend', 'plugin']);
export type ClientType = v.InferOutput<typeof ClientTypeSchema>;

/** `clientId` is required for plugins (they join room `client:{clientId}`). */
export const SocketAuthSchema = v.variant('clientType', [
  v.object({ clientType: v.literal('plugin'), clientId: ClientIdSchema, token: v.optional(v.string()) }),
  v.object({ clientType: v.literal('frontend'), clientId: v.optional(ClientIdSchema), token: v.optional(v.string()) }),
]);
export type SocketAuth = v.InferOutput<typeof SocketAuthSchema>;

/** Room names (ARCHITECTURE.md). */
export const rooms = {
  frontend: 'frontend',
  task: (taskId: string) => `task:${taskId}`,
  client: (clientId: string) => `client:${clientId}`,
} as const;
