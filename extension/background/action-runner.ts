// Receives `browser_action` (seed 001 §3.5, §4): acks at once (ack = received and started),
// validates with the shared contracts (SCHEMA_VALIDATION_FAILED), deduplicates by actionId
// (a repeat gets the first result again), runs the handler and sends browser_action_result.
import {
  actionResultSchemas,
  BrowserActionSchema,
  isUlid,
  isUuid,
  PROTOCOL_VERSION,
  protocolError,
  unpackActionCall,
  validate,
} from '../../transport/contracts/index.ts';
import type {
  BrowserActionAck,
  BrowserActionResultMessage,
  NamedActionCall,
  ProtocolError,
} from '../../transport/contracts/index.ts';
import type { ActionContext, ActionHandlers, BackgroundServices } from './action-context.ts';
import { ActionFailure, messageOf } from './action-failure.ts';
import { actionLabels, inputActions } from './action-handlers.ts';

export const RESULT_CACHE_SIZE = 500;

export interface ActionRunnerDeps {
  handlers: ActionHandlers;
  services: BackgroundServices;
  clientId(): string | null;
  send(message: BrowserActionResultMessage): boolean;
  cacheSize?: number;
}

export interface ActionRunner {
  /** Never throws; resolves once the result was handed to `send` (or the action was refused). */
  receive(raw: unknown, ack?: (response: BrowserActionAck) => void): Promise<void>;
}

type Outcome = { status: 'success'; result: Record<string, unknown> } | { status: 'error'; error: ProtocolError };

function isTaskIdLike(value: unknown): value is string {
  return typeof value === 'string' && (isUlid(value) || isUuid(value));
}

function field(raw: unknown, key: string): unknown {
  return typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[key] : undefined;
}

export function createActionRunner(deps: ActionRunnerDeps): ActionRunner {
  const results = new Map<string, Promise<BrowserActionResultMessage>>();
  const cacheSize = deps.cacheSize ?? RESULT_CACHE_SIZE;

  function remember(actionId: string, result: Promise<BrowserActionResultMessage>): void {
    results.set(actionId, result);
    while (results.size > cacheSize) results.delete(results.keys().next().value as string);
  }

  function message(actionId: string, taskId: string, clientId: string, outcome: Outcome): BrowserActionResultMessage {
    const base = {
      v: PROTOCOL_VERSION,
      type: 'browser_action_result' as const,
      actionId,
      taskId,
      clientId,
      timestamp: deps.services.now(),
    };
    return outcome.status === 'success'
      ? { ...base, status: 'success', result: outcome.result }
      : { ...base, status: 'error', error: outcome.error };
  }

  async function execute(call: NamedActionCall, ctx: ActionContext): Promise<Outcome> {
    const tabId = field(call.params, 'tabId');
    let overlayTab: number | null = null;
    try {
      if (typeof tabId === 'number' && (await ctx.taskTabs.get(ctx.taskId))?.tabId === tabId) {
        overlayTab = tabId;
        const strategy = field(call.params, 'strategy');
        const dispatchesInput = inputActions.has(call.name) && strategy !== 'dom_click' && strategy !== 'dom_input';
        const capturesPage = call.name === 'browser_screenshot';
        await ctx.overlay.actionStarted(ctx.taskId, tabId, {
          actionId: ctx.actionId,
          label: actionLabels[call.name],
          dispatchesInput,
          capturesPage,
        });
      }
      const handler = deps.handlers[call.name] as (
        params: unknown,
        ctx: ActionContext,
      ) => Promise<Record<string, unknown>>;
      const result = await handler(call.params, ctx);
      const checked = validate(actionResultSchemas[call.name], result);
      if (!checked.ok) {
        return {
          status: 'error',
          error: protocolError(
            'PLUGIN_ERROR',
            `internal: the ${call.name} result broke the contract: ${checked.error.message}`,
          ),
        };
      }
      return { status: 'success', result: checked.value as Record<string, unknown> };
    } catch (error) {
      if (error instanceof ActionFailure) return { status: 'error', error: error.error };
      return { status: 'error', error: protocolError('PLUGIN_ERROR', `${call.name} failed: ${messageOf(error)}`) };
    } finally {
      if (overlayTab !== null) ctx.overlay.actionSettled(ctx.taskId, overlayTab, ctx.actionId);
    }
  }

  return {
    async receive(raw, ack = () => {}) {
      const clientId = deps.clientId();
      const checked = validate(BrowserActionSchema, raw, 'SCHEMA_VALIDATION_FAILED');
      if (!checked.ok) {
        const error = protocolError('SCHEMA_VALIDATION_FAILED', checked.error.message, {
          details: { fieldErrors: checked.error.fieldErrors },
        });
        const actionId = field(raw, 'id');
        const taskId = field(raw, 'taskId');
        // Identifiable: acknowledge and answer with an error result; otherwise refuse in the ack.
        if (typeof actionId === 'string' && actionId !== '' && isTaskIdLike(taskId) && clientId) {
          ack({ ok: true });
          deps.send(message(actionId, taskId, clientId, { status: 'error', error }));
        } else {
          ack({ ok: false, error });
        }
        return;
      }
      const action = checked.value;
      if (!clientId || action.clientId !== clientId) {
        ack({
          ok: false,
          error: protocolError(
            'SCHEMA_VALIDATION_FAILED',
            `action for client ${action.clientId} reached client ${clientId ?? '(none)'}`,
          ),
        });
        return;
      }
      const earlier = results.get(action.id);
      if (earlier) {
        ack({ ok: true });
        deps.send(await earlier);
        return;
      }
      ack({ ok: true });
      const ctx: ActionContext = { ...deps.services, action, taskId: action.taskId, actionId: action.id };
      const pending = execute(unpackActionCall(action.action), ctx).then((outcome) =>
        message(action.id, action.taskId, clientId, outcome),
      );
      remember(action.id, pending);
      deps.send(await pending);
    },
  };
}
