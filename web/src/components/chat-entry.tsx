import type { AssistantItem, NoticeItem, UserItem } from '../models/chat-items.ts';
import { MarkdownText } from './markdown-text.tsx';

export function UserEntry({ item, onRetry }: { item: UserItem; onRetry: (id: string) => void }) {
  return (
    <li class={`entry user delivery-${item.delivery}`} data-testid="user-message">
      <div class="bubble">{item.content}</div>
      {item.delivery === 'sending' && <span class="delivery muted">sending…</span>}
      {item.delivery === 'failed' && (
        <span class="delivery error-text">
          Not delivered{item.error ? ` (${item.error.code}: ${item.error.message})` : ''}.{' '}
          <button type="button" class="link-btn" onClick={() => onRetry(item.id)}>
            Retry
          </button>
        </span>
      )}
    </li>
  );
}

export function AssistantEntry({ item }: { item: AssistantItem }) {
  return (
    <li class={`entry assistant${item.streaming ? ' streaming' : ''}`} data-testid="assistant-message" aria-busy={item.streaming}>
      <MarkdownText text={item.content} />
    </li>
  );
}

export function NoticeEntry({ item }: { item: NoticeItem }) {
  return (
    <li class={`entry notice notice-${item.status}`} data-testid="notice" role={item.status === 'error' ? 'alert' : undefined}>
      {item.code && <code class="notice-code">{item.code}</code>} <span>{item.message}</span>
      {item.status === 'error' && item.retryable !== undefined && (
        <span class="muted"> · {item.retryable ? 'temporary: sending the request again may work' : 'retrying will not help'}</span>
      )}
      {item.detail && <pre class="notice-detail">{item.detail}</pre>}
    </li>
  );
}
