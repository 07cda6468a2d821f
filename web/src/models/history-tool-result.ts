// A history `tool` message as a tool step. Its content is the ToolResult the model saw
// (seed 000 §5: `{ toolCallId, name, ok, result | error, warnings?, missing? }`); from it the
// step gets its action name, outcome, error, warnings, the tab it acted on (`result.tabId`) and
// a screenshot thumbnail when the result names an artifact (GET /api/artifacts/:id).
import * as v from 'valibot';
import type { ToolArtifact } from '../../../transport/contracts/frontend-event.ts';
import type { TaskMessage } from '../../../transport/contracts/http.ts';
import { ToolResultSchema } from '../../../transport/contracts/tool-result.ts';
import type { ToolItem } from './chat-items.ts';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function artifactsOf(name: string, result: unknown): ToolArtifact[] {
  if (typeof result !== 'object' || result === null) return [];
  const id = (result as { artifactId?: unknown }).artifactId;
  if (typeof id !== 'string' || !/^[\w-]+$/.test(id)) return [];
  return [{ artifactId: id, kind: name === 'browser_screenshot' ? 'screenshot' : 'file', url: `/api/artifacts/${id}` }];
}

export function toolItemFromHistory(m: TaskMessage, turn: string | undefined): ToolItem {
  const base: ToolItem = {
    kind: 'tool',
    key: `h:${m.id}`,
    toolCallId: m.toolCallId ?? m.id,
    actionName: 'tool result',
    paramsSummary: '',
    phase: 'success',
    timestamp: m.timestamp,
    artifacts: [],
    warnings: [],
    resultText: m.content,
    ...(turn ? { turn } : {}),
  };
  const parsed = v.safeParse(ToolResultSchema, parseJson(m.content));
  if (!parsed.success) return base;
  const r = parsed.output;
  const meta = m.meta ?? {};
  const described = {
    ...(typeof meta.actionId === 'string' ? { actionId: meta.actionId } : {}),
    ...(typeof meta.paramsSummary === 'string' ? { paramsSummary: meta.paramsSummary } : {}),
    ...(typeof meta.target === 'string' && meta.target ? { target: meta.target } : {}),
    ...(typeof meta.durationMs === 'number' ? { durationMs: meta.durationMs } : {}),
  };
  if (!r.ok)
    return {
      ...base,
      ...described,
      actionName: r.name,
      phase: 'error',
      error: r.error,
      ...(r.error.code === 'TASK_STOPPED' ? { canceled: true } : {}),
    };
  const tabId = typeof r.result === 'object' && r.result !== null ? (r.result as { tabId?: unknown }).tabId : undefined;
  const result =
    typeof r.result === 'object' && r.result !== null && !Array.isArray(r.result)
      ? { result: r.result as Record<string, unknown> }
      : {};
  return {
    ...base,
    ...described,
    ...result,
    actionName: r.name,
    phase: (r.missing?.length ?? 0) > 0 ? 'partial' : 'success',
    paramsSummary:
      typeof meta.paramsSummary === 'string' ? meta.paramsSummary : typeof tabId === 'number' ? `tabId=${tabId}` : '',
    warnings: r.warnings ?? [],
    artifacts: artifactsOf(r.name, r.result),
  };
}
