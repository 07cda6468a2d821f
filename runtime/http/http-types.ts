// What createHttpApp needs, and the Hono environment its handlers share.
import type { ArtifactService } from '../artifacts/index.ts';
import type { ExtensionRegistry } from '../registry/index.ts';
import type { SnapshotStore } from '../snapshot/index.ts';
import type { TaskStore } from '../store/index.ts';

/** The runtime's one clock type (runtime/clock); this module only reads `now()`. */
import type { WallClock } from '../clock/index.ts';
export type Clock = WallClock;

export interface HttpAppConfig {
  /** When set, /api/* needs `Authorization: Bearer <token>` or `X-Mimo-Token: <token>` (see token-auth.ts for the exceptions). */
  token?: string | undefined;
  /** Origins allowed by CORS (MIMO_CORS_ORIGIN, comma-separated; `parseCorsOrigins`). Empty: the seed default. */
  corsOrigins: string[];
  /** Origin the server is reached at; its origin is allowed by CORS as well. */
  publicBaseUrl: string;
  /** Largest JSON request body; default 1 MiB. */
  maxJsonBytes?: number;
}

/** The structured log line every entry goes through; every entry carries the request's traceId. */
export type HttpLog = (entry: { type: string; traceId: string; [key: string]: unknown }) => void;

export interface HttpAppDeps {
  taskStore: Pick<TaskStore, 'getTask' | 'listTasks' | 'listMessages'>;
  registry: Pick<ExtensionRegistry, 'register' | 'list'>;
  snapshots: Pick<SnapshotStore, 'current' | 'latestClientId'>;
  artifacts: Pick<ArtifactService, 'presign' | 'acceptUpload' | 'open'>;
  config: HttpAppConfig;
  log?: ((entry: object) => void) | undefined;
  newTaskId: () => string;
  /** Task folders the store could not read at start (GET /api/task/list?damaged=1). */
  damagedTasks?: (() => Array<{ taskId: string; reason: string }>) | undefined;
  isConnected(clientId: string): boolean;
  /** Trace id for requests that bring none (default: crypto.randomUUID). */
  newTraceId?: (() => string) | undefined;
  /** For request durations in the access log (default: Date.now). */
  clock?: Clock | undefined;
}

export interface HttpEnv {
  Variables: {
    /** The request's X-Trace-Id (echoed) or a generated one. */
    traceId: string;
  };
}
