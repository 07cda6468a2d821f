// The conversation renderer (chat entries, tool steps in plain words, errors with their actions,
// the Markdown renderer), loaded when there is a conversation to show: a first visit with no task
// open does not download it. main.tsx imports this module lazily.
import { ChatLog } from './components/chat-log.tsx';
import { LiveView } from './components/live-view.tsx';

export interface ConversationChunk {
  ChatLog: typeof ChatLog;
  LiveView: typeof LiveView;
}

export function loadConversationChunk(): ConversationChunk {
  return { ChatLog, LiveView };
}
