export { createExtensionRegistry } from './extension-registry.ts';
export type { ExtensionRegistryOptions } from './extension-registry.ts';
export { selectExtension, PLUGIN_OFFLINE_MESSAGE } from './select-extension.ts';
export type { Candidate } from './select-extension.ts';
export type {
  Clock,
  ExecTimeoutOutcome,
  ExtensionMetadata,
  ExtensionRegistry,
  PluginOfflineError,
  RegisterResult,
  RegistryBadInput,
  RegistryChange,
  RegistryChangeReason,
  RegistryListener,
  Selection,
  SelectionReason,
} from './registry-types.ts';
