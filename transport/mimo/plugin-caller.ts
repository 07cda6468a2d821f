// Who may act as the extension: a plugin registration must come from the
// extension itself or from a program outside any browser. The proof is what a web page cannot
// forge: the Origin of the request, which the browser sets (`chrome-extension://<pinned id>` for
// the extension's WebSocket and fetches), and the Fetch Metadata headers (`Sec-Fetch-*`), which
// every current browser adds to every request a page makes, same-origin ones included, and which
// a page can neither remove nor change (forbidden header names). Before this, "no Origin" was
// taken for a non-browser client; but a same-origin GET (the Engine.IO polling handshake a
// script on the web UI's origin opens by hand) carries no Origin either. It does carry
// `Sec-Fetch-Site: same-origin`, so it is now recognised as a browser page and refused.
// Chromium sends Fetch Metadata only to potentially trustworthy origins (https, localhost,
// 127.0.0.1): for a plain-http LAN address the later requests of the session are what give a page
// away (a browser adds Origin to every POST; mimo-namespace.ts checks them all).
//
// Pure: headers in, a verdict out (Node lower-cases header names).
export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

export type PluginCallerVerdict =
  { ok: true; via: 'extension_origin' | 'non_browser' } | { ok: false; reason: 'web_origin' | 'browser_page' };

// Not Sec-Fetch-Mode: Node's own fetch (undici) sends `sec-fetch-mode: cors` and nothing else.
const FETCH_METADATA = ['sec-fetch-site', 'sec-fetch-dest', 'sec-fetch-user'] as const;

function first(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}

/** Whether a browser made this request (it carries Fetch Metadata, which only browsers send). */
export function fromBrowser(headers: HeaderBag): boolean {
  return FETCH_METADATA.some((name) => first(headers[name]) !== undefined);
}

/**
 * `isExtensionOrigin`: the allowed `chrome-extension://` origins (the gate's list). An Origin
 * that is not one of them is a web page; no Origin with Fetch Metadata is a browser page too.
 */
export function pluginCaller(headers: HeaderBag, isExtensionOrigin: (origin: string) => boolean): PluginCallerVerdict {
  const origin = first(headers.origin);
  if (origin !== undefined)
    return isExtensionOrigin(origin) ? { ok: true, via: 'extension_origin' } : { ok: false, reason: 'web_origin' };
  return fromBrowser(headers) ? { ok: false, reason: 'browser_page' } : { ok: true, via: 'non_browser' };
}
