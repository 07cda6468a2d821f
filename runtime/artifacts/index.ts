export { createArtifactService } from './artifact-service.ts';
export { createFolderArtifactStore } from './artifact-folder-store.ts';
export type { ArtifactStore, StoredBytes, UploadClaim, UploadSink } from './artifact-store.ts';
export { ArtifactError, isArtifactError } from './artifact-error.ts';
export type { ArtifactErrorCode, ArtifactErrorReason } from './artifact-error.ts';
export { isValidArtifactId, newArtifactId } from './artifact-id.ts';
export { isValidContentType } from './artifact-inputs.ts';
export { artifactResponseHeaders } from './download-headers.ts';
export { createNodeScheduler } from './scheduler.ts';
export { signUploadToken, verifyUploadToken } from './upload-token.ts';
export type {
  ArtifactKind,
  ArtifactMeta,
  ArtifactService,
  ArtifactServiceOptions,
  Clock,
  OpenedArtifact,
  PresignInput,
  PresignResult,
  PutArtifactInput,
  Scheduler,
  StoredArtifact,
  SweeperOptions,
  SweepResult,
  UploadOptions,
} from './artifact-types.ts';
