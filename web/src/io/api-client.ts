// The HTTP API of seed 001 §2 as the web uses it: envelope-checked with the shared schemas, with
// `Authorization: Bearer` when a token is known. Every call resolves to a result value.
import * as v from 'valibot';
import { envelopeSchema } from '../../../transport/contracts/envelope.ts';
import {
  ExtensionListResponseSchema,
  SnapshotResponseSchema,
  TaskDetailSchema,
  TaskIdResponseSchema,
  TaskListResponseSchema,
  type ExtensionListResponse,
  type SnapshotResponse,
  type TaskDetail,
  type TaskIdResponse,
  type TaskListResponse,
} from '../../../transport/contracts/http.ts';
import { PROTOCOL_HEADER, PROTOCOL_VERSION } from '../../../transport/contracts/protocol-version.ts';

export interface ApiError {
  code: string;
  message: string;
  /** HTTP status when a response arrived. */
  status?: number;
  retryable?: boolean;
}

export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: ApiError };

export interface ApiClient {
  newTaskId(signal?: AbortSignal): Promise<ApiResult<TaskIdResponse>>;
  listTasks(signal?: AbortSignal): Promise<ApiResult<TaskListResponse>>;
  /** One page, newest activity first; `nextCursor` is null on the last page. */
  listTaskPage(limit: number, cursor?: string | null, signal?: AbortSignal): Promise<ApiResult<TaskPage>>;
  getTask(taskId: string, signal?: AbortSignal): Promise<ApiResult<TaskDetail>>;
  getSnapshot(signal?: AbortSignal): Promise<ApiResult<SnapshotResponse>>;
  listExtensions(signal?: AbortSignal): Promise<ApiResult<ExtensionListResponse>>;
}

const TaskPageSchema = v.object({ tasks: TaskListResponseSchema, nextCursor: v.nullable(v.string()) });
export type TaskPage = v.InferOutput<typeof TaskPageSchema>;

export interface ApiClientDeps {
  fetch: typeof fetch;
  /** '' for same-origin (the server or Vite's proxy). */
  baseUrl?: string;
  token?: string | undefined;
}

const codeByStatus: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMITED',
  503: 'UNAVAILABLE',
};

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const base = (deps.baseUrl ?? '').replace(/\/+$/, '');
  const headers: Record<string, string> = { Accept: 'application/json', [PROTOCOL_HEADER]: String(PROTOCOL_VERSION) };
  if (deps.token) headers.Authorization = `Bearer ${deps.token}`;

  async function get<T>(path: string, data: v.GenericSchema<unknown, T>, signal?: AbortSignal): Promise<ApiResult<T>> {
    let response: Response;
    try {
      response = await deps.fetch(`${base}${path}`, { headers, ...(signal ? { signal } : {}) });
    } catch (cause) {
      const aborted = signal?.aborted === true;
      return {
        ok: false,
        error: {
          code: aborted ? 'ABORTED' : 'UNAVAILABLE',
          message: aborted
            ? `GET ${path} was canceled`
            : `the server is not reachable (${cause instanceof Error ? cause.message : String(cause)})`,
          retryable: !aborted,
        },
      };
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      const code =
        codeByStatus[response.status] ??
        (response.ok ? 'INTERNAL' : response.status >= 500 ? 'INTERNAL' : 'BAD_REQUEST');
      return {
        ok: false,
        error: { code, message: `GET ${path} answered ${response.status} without JSON`, status: response.status },
      };
    }
    const parsed = v.safeParse(envelopeSchema(data), body);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const where = issue ? v.getDotPath(issue) : null;
      return {
        ok: false,
        error: {
          code: 'INTERNAL',
          message: `unexpected response from GET ${path}${where ? ` at ${where}` : ''}: ${issue?.message ?? 'invalid'}`,
          status: response.status,
        },
      };
    }
    const envelope = parsed.output as
      | { ok: true; data: T }
      | { ok: false; error: { code: string; message: string; details?: { retryable?: boolean } } };
    if (envelope.ok) return { ok: true, data: envelope.data };
    const error: ApiError = { code: envelope.error.code, message: envelope.error.message, status: response.status };
    if (envelope.error.details?.retryable !== undefined) error.retryable = envelope.error.details.retryable;
    return { ok: false, error };
  }

  return {
    newTaskId: (signal) => get('/api/task/id', TaskIdResponseSchema, signal),
    listTasks: (signal) => get('/api/task/list', TaskListResponseSchema, signal),
    listTaskPage: (limit, cursor, signal) =>
      get(
        `/api/task/list?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        TaskPageSchema,
        signal,
      ),
    getTask: (taskId, signal) => get(`/api/task/${encodeURIComponent(taskId)}`, TaskDetailSchema, signal),
    getSnapshot: (signal) => get('/api/snapshot', SnapshotResponseSchema, signal),
    listExtensions: (signal) => get('/api/extension/extension-list', ExtensionListResponseSchema, signal),
  };
}
