// The one module that imports webextension-polyfill (STYLE.md rule 11). Every other module
// receives the `browser` object it returns as a parameter.
import polyfill from 'webextension-polyfill';
import type { BrowserApi } from './browser-api.ts';

/** The promise-based extension API of the current context. */
export function getBrowser(): BrowserApi {
  return polyfill as unknown as BrowserApi;
}
