import type { AssistantItem, NoticeItem, UserItem } from '../models/chat-items.ts';
import { ErrorDetail, type ErrorActions } from './error-detail.tsx';
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
    <li
      class={`entry assistant${item.streaming ? ' streaming' : ''}`}
      data-testid="assistant-message"
      aria-busy={item.streaming}
    >
      <MarkdownText text={item.content} />
    </li>
  );
}

export function NoticeEntry({ item, actions }: { item: NoticeItem; actions: ErrorActions }) {
  if (item.status === 'error') {
    const error = item.error ?? {
      code: item.code ?? 'ERROR',
      message: item.message,
      ...(item.retryable !== undefined ? { retryable: item.retryable } : {}),
    };
    return (
      <li class="entry notice notice-error" data-testid="notice" data-code={item.code} role="alert">
        <ErrorDetail error={error} actions={actions} />
        {item.detail && <pre class="notice-detail">{item.detail}</pre>}
      </li>
    );
  }
  return (
    <li class={`entry notice notice-${item.status}`} data-testid="notice">
      {item.code && <code class="notice-code">{item.code}</code>} <span>{item.message}</span>
      {item.detail && <pre class="notice-detail">{item.detail}</pre>}
    </li>
  );
}
