// manifest.json of the extension (MV3).
import { EXTENSION_PUBLIC_KEY } from '../transport/contracts/extension-identity.ts';
// The server's own web UI only. Not :3000 (Vite's dev port, and any other dev app's): a page there
// could ask to pair; add it on the options page when you run `npm run dev:web`. Every
// pairing with a new server asks the person anyway (background/pairing-consent.ts).
export const DEFAULT_WEB_UI_MATCHES = ['http://localhost:6006/*', 'http://127.0.0.1:6006/*'] as const;

export interface ManifestOptions {
  version: string;
  /** externally_connectable.matches: the web UI origins (also refused as task tabs, and the page bridge allowlist). */
  webUiMatches?: readonly string[];
}

export function createManifest(options: ManifestOptions): Record<string, unknown> {
  return {
    manifest_version: 3,
    name: 'Mimo',
    short_name: 'mimo-agent',
    version: options.version,
    // Pins the extension id (DEFAULT_EXTENSION_ID) so the server knows the default build's Origin.
    key: EXTENSION_PUBLIC_KEY,
    description:
      'Lets the Mimo agent work in a background tab of your browser; you can watch, take over and hand back.',
    minimum_chrome_version: '116',
    // downloads: a task tab's downloads are filed into Downloads/Mimo/<taskId>/.
    // declarativeNetRequest: the new-tab gate of the URL policy (background/new-tab-gate.ts).
    permissions: [
      'tabs',
      'tabGroups',
      'debugger',
      'storage',
      'alarms',
      'scripting',
      'downloads',
      'declarativeNetRequest',
    ],
    host_permissions: ['<all_urls>'],
    background: { service_worker: 'background.js', type: 'module' },
    content_scripts: [{ matches: ['<all_urls>'], js: ['content.js'], run_at: 'document_start', all_frames: false }],
    options_ui: { page: 'options.html', open_in_tab: true },
    externally_connectable: { matches: [...(options.webUiMatches ?? DEFAULT_WEB_UI_MATCHES)] },
  };
}
