// Builds `frontend_message` values (seed 001 §3.3) from the shared contract types.
import type { FrontendMessage, FrontendMessageType } from '../../../transport/contracts/frontend-message.ts';
import { PROTOCOL_VERSION } from '../../../transport/contracts/protocol-version.ts';

type MessageOf<T extends FrontendMessageType> = Extract<FrontendMessage, { type: T }>;
/** The fields a caller supplies; the factory fills v, type, id, timestamp, taskId. */
export type MessageExtra<T extends FrontendMessageType> = Omit<
  MessageOf<T>,
  'v' | 'type' | 'id' | 'timestamp' | 'taskId'
>;

export interface MessageFactoryDeps {
  clock: { now(): number };
  newId: () => string;
}

export type BuildMessage = <T extends FrontendMessageType>(
  type: T,
  taskId: string,
  ...extra: {} extends MessageExtra<T> ? [extra?: MessageExtra<T>] : [extra: MessageExtra<T>]
) => MessageOf<T>;

export function createMessageFactory(deps: MessageFactoryDeps): BuildMessage {
  return ((type: FrontendMessageType, taskId: string, extra: object = {}) => ({
    ...extra,
    v: PROTOCOL_VERSION,
    type,
    id: `evt-${deps.newId()}`,
    timestamp: deps.clock.now(),
    taskId,
  })) as BuildMessage;
}
