// app.onError and app.notFound: every failure leaves as an envelope. Errors that already carry
// a seed code and an HTTP status (TaskStoreError, ArtifactError: `code`, `status`, `toJSON()`)
// are answered as they say; anything else is a 500 INTERNAL whose message names the trace id,
// never the exception text or its stack (those go to the log).
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { httpErrorCodes } from '../../transport/contracts/index.ts';
import type { HttpErrorCode } from '../../transport/contracts/index.ts';
import { errorResponse } from './envelope-response.ts';
import type { HttpErrorBody } from './envelope-response.ts';
import type { HttpEnv, HttpLog } from './http-types.ts';

interface BoundaryError {
  code: HttpErrorCode;
  status: number;
  message: string;
  toJSON?: () => { code: string; message: string; details?: unknown };
}

function isBoundaryError(error: unknown): error is BoundaryError {
  if (typeof error !== 'object' || error === null) return false;
  const { code, status } = error as { code?: unknown; status?: unknown };
  return (
    typeof code === 'string' &&
    (httpErrorCodes as readonly string[]).includes(code) &&
    typeof status === 'number' &&
    Number.isInteger(status) &&
    status >= 400 &&
    status <= 599
  );
}

function bodyOf(error: BoundaryError): HttpErrorBody {
  const json = typeof error.toJSON === 'function' ? error.toJSON() : undefined;
  const details = json?.details;
  const body: HttpErrorBody = { code: error.code, message: json?.message ?? error.message };
  if (typeof details === 'object' && details !== null) body.details = details as HttpErrorBody['details'];
  return body;
}

function describe(error: unknown): Record<string, unknown> {
  return error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : { value: String(error) };
}

export function errorEnvelopeHandler(log: HttpLog | undefined): ErrorHandler<HttpEnv> {
  return function onError(error: unknown, c: Context<HttpEnv>) {
    const traceId = c.get('traceId') ?? '';
    if (isBoundaryError(error)) {
      if (error.status >= 500)
        log?.({
          type: 'http_error',
          traceId,
          method: c.req.method,
          path: c.req.path,
          status: error.status,
          error: describe(error),
        });
      return errorResponse(c, bodyOf(error), error.status);
    }
    log?.({ type: 'http_error', traceId, method: c.req.method, path: c.req.path, status: 500, error: describe(error) });
    return errorResponse(c, {
      code: 'INTERNAL',
      message: `internal server error (trace id ${traceId})`,
      details: { retryable: true, context: { traceId } },
    });
  };
}

export function notFoundHandler(): NotFoundHandler<HttpEnv> {
  return function notFound(c) {
    return errorResponse(c, { code: 'NOT_FOUND', message: `no route for ${c.req.method} ${c.req.path}` });
  };
}
