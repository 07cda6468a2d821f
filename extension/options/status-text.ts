// The options page's connection line: what the background reports, said so that the user knows
// what to do next (connected / wrong token / extension refused / server unreachable).
import type { ConnectionStatus } from '../shared/internal-messages.ts';

export type ConnectionState =
  'connected' | 'wrong_token' | 'forbidden' | 'unreachable' | 'connecting' | 'no_background';

export function connectionState(status: ConnectionStatus | null): ConnectionState {
  if (!status) return 'no_background';
  if (status.connected) return 'connected';
  if (status.errorKind === 'unauthorized') return 'wrong_token';
  if (status.errorKind === 'forbidden') return 'forbidden';
  if (status.errorKind === 'unreachable' || status.errorKind === 'disconnected') return 'unreachable';
  return 'connecting';
}

export function describeConnection(status: ConnectionStatus | null): { state: ConnectionState; text: string } {
  const state = connectionState(status);
  const server = status?.serverUrl ?? '';
  const detail = status?.lastError ? ` (${status.lastError})` : '';
  const text: Record<ConnectionState, string> = {
    connected: `Connected to ${server}. Client id: ${status?.clientId ?? '…'}`,
    wrong_token: `Wrong token: the server at ${server} refused it${detail}. Click "Connect this browser" in the Mimo web UI, or paste the token the server printed at start.`,
    forbidden: `Refused: the server at ${server} does not accept this extension${detail}. Add its id to MIMO_EXTENSION_IDS on the server.`,
    unreachable: `Server unreachable: nothing answered at ${server}${detail}. Is Mimo running there?`,
    connecting: `Connecting to ${server}…`,
    no_background: 'The extension background is not answering; reload the extension.',
  };
  return { state, text: text[state] };
}
