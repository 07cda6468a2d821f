// What the composition root (runtime/server.ts) builds and hands down: the services the agent
// side, MCP, the recorder and cluster mode are built from. Its own module, so none of them
// imports the composition root (imports point down only, ARCHITECTURE.md).
import type { TaskTrees } from '../agent/task-trees.ts';
import type { ArtifactService, ArtifactStore } from '../artifacts/index.ts';
import type { Clock } from '../clock/index.ts';
import type { MimoConfig } from '../config.ts';
import type { ExtensionRegistry } from '../registry/index.ts';
import type { SecretRegistry } from '../redaction/redact.ts';
import type { ActionScheduler, PluginChannel } from '../scheduler/action-scheduler.ts';
import type { SnapshotStore } from '../snapshot/index.ts';
import type { FrontendEventSink } from '../socket/frontend-events.ts';
import type { TaskStore } from '../store/index.ts';
import type { Namespace } from '../../transport/server/index.ts';
import type { TaskControl } from './task-control.ts';

export type Log = (entry: object) => void;

/** What the agent side (orchestrator), MCP and cluster mode get to build themselves from. */
export interface RuntimeServices {
  config: MimoConfig;
  clock: Clock;
  log: Log;
  taskStore: TaskStore;
  registry: ExtensionRegistry;
  snapshots: SnapshotStore;
  artifacts: ArtifactService;
  scheduler: ActionScheduler;
  /** The live task actor trees (chat tasks and MCP sessions' tool tasks): every action is a child of one. */
  tasks: TaskTrees;
  events: FrontendEventSink;
  nsp: Namespace;
  /** Secrets seen at run time (text typed into password fields); every record sink redacts them. */
  secrets: SecretRegistry;
}

/** Cluster mode (runtime/cluster/): wraps the plugin channel, the services and the control so they span nodes. */
export interface ServerClusterHooks {
  channel(local: PluginChannel, deps: { nsp: Namespace; registry: ExtensionRegistry }): PluginChannel;
  services(services: RuntimeServices): RuntimeServices;
  control(control: TaskControl | undefined, services: RuntimeServices): TaskControl | undefined;
  /** Where artifacts live in cluster mode (PostgreSQL), instead of the local folder. */
  artifactStore?: ArtifactStore;
}

/** What a listening server offers to those that join it (cluster mode's adapter and lock). */
export interface ListeningServer {
  nsp: Namespace;
  /** The base URL it listens on. */
  readonly url: string;
}
