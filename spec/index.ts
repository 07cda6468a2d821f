// The spec facts of the seeds in one dependency-free place: error codes and their retryable
// table, the error value, timeouts and the idempotent actions.
export * from './error-codes.ts';
export * from './error-value.ts';
export * from './action-timeouts.ts';
export * from './other-timeouts.ts';
