// navigation_check: the extension asks, before a task tab's document request leaves the
// browser, whether the URL policy allows it. The policy lives here (runtime/url-policy, which
// resolves DNS); the answer goes back as the `data` of the Socket.IO ack. A blocked navigation is also told to
// the task: a `structuredOutput` URL_BLOCKED event to the task's room, the log, and the agent side
// (TaskControl.navigationBlocked). A check that throws blocks (fail closed).
import {
  ackOk,
  protocolError,
  type NavigationCheck,
  type NavigationVerdict,
  type ProtocolError,
  type SocketAck,
} from '../../transport/contracts/index.ts';

/** The server's URL policy check (runtime/url-policy `check`). */
export type NavigationPolicyCheck = (
  url: string,
) => Promise<{ ok: true } | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } }>;

export interface NavigationBlockedReport {
  clientId: string;
  taskId: string;
  tabId: number;
  url: string;
  frame: NavigationCheck['frame'];
  stage: NavigationCheck['stage'];
  error: ProtocolError;
}

export interface NavigationCheckDeps {
  /** Absent: the server has no URL policy (bare createServer), every navigation is allowed. */
  check?: NavigationPolicyCheck;
  onBlocked?(report: NavigationBlockedReport): void;
}

/** The ack: `{ ok: true, data: NavigationVerdict }`. */
export async function answerNavigationCheck(
  deps: NavigationCheckDeps,
  clientId: string,
  message: NavigationCheck,
): Promise<SocketAck> {
  const answer = (verdict: NavigationVerdict) => ackOk(verdict);
  if (!deps.check) return answer({ allowed: true });
  let error: ProtocolError;
  try {
    const verdict = await deps.check(message.url);
    if (verdict.ok) return answer({ allowed: true });
    error = protocolError('URL_BLOCKED', verdict.error.message, {
      retryable: false,
      details: {
        ...verdict.error.details,
        url: message.url.slice(0, 2_048),
        tabId: message.tabId,
        frame: message.frame,
        stage: message.stage,
      },
    });
  } catch (thrown) {
    error = protocolError(
      'URL_BLOCKED',
      `the URL policy could not be evaluated (${String(thrown)}); the navigation is blocked`,
      { retryable: false, details: { url: message.url.slice(0, 2_048), tabId: message.tabId } },
    );
  }
  deps.onBlocked?.({
    clientId,
    taskId: message.taskId,
    tabId: message.tabId,
    url: message.url,
    frame: message.frame,
    stage: message.stage,
    error,
  });
  return answer({ allowed: false, error });
}
