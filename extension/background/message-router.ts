// runtime.onMessage for the background: the sender is checked against an allowlist first
// (this extension only; content messages from a tab's page, options messages from an extension
// page), then the message is validated and dispatched through a handler map.
import * as v from 'valibot';
import type { MessageSender } from '../shared/browser-api.ts';
import { ContentToBackgroundMessageSchema, OptionsToBackgroundMessageSchema } from '../shared/internal-messages.ts';
import type { ContentToBackgroundMessage, OptionsToBackgroundMessage } from '../shared/internal-messages.ts';

type Handlers<TMessage extends { kind: string }, TSender> = {
  [K in TMessage['kind']]: (message: Extract<TMessage, { kind: K }>, sender: TSender) => Promise<unknown>;
};

/** A content script's sender: a tab, top frame. */
export type ContentSender = MessageSender & { tab: NonNullable<MessageSender['tab']> & { id: number } };

export interface MessageRouterDeps {
  extensionId: string;
  /** `chrome-extension://<id>/` */
  extensionOrigin: string;
  content: Handlers<ContentToBackgroundMessage, ContentSender>;
  options: Handlers<OptionsToBackgroundMessage, MessageSender>;
}

export function createMessageRouter(
  deps: MessageRouterDeps,
): (message: unknown, sender: MessageSender) => Promise<unknown> | undefined {
  return (message, sender) => {
    if (sender.id !== deps.extensionId) return undefined;
    const fromExtensionPage = typeof sender.url === 'string' && sender.url.startsWith(deps.extensionOrigin);
    if (fromExtensionPage) {
      const parsed = v.safeParse(OptionsToBackgroundMessageSchema, message);
      if (!parsed.success) return undefined;
      const handler = deps.options[parsed.output.kind] as (
        m: OptionsToBackgroundMessage,
        s: MessageSender,
      ) => Promise<unknown>;
      return handler(parsed.output, sender);
    }
    if (typeof sender.tab?.id !== 'number' || (sender.frameId !== undefined && sender.frameId !== 0)) return undefined;
    const parsed = v.safeParse(ContentToBackgroundMessageSchema, message);
    if (!parsed.success) return undefined;
    const handler = deps.content[parsed.output.kind] as (
      m: ContentToBackgroundMessage,
      s: ContentSender,
    ) => Promise<unknown>;
    return handler(parsed.output, sender as ContentSender);
  };
}
