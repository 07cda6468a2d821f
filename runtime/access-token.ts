// The access token made on first start (Jupyter-style): when MIMO_TOKEN is unset the
// server keeps a random token in `<dataDir>/access-token` (mode 0600, folder 0700 when we create
// it) and reuses it on every later start, so the extension and saved UI tabs keep working.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const ACCESS_TOKEN_FILE = 'access-token';

export interface StoredToken {
  token: string;
  path: string;
  created: boolean;
  /** Set when the file was readable by others and we narrowed it to 0600. */
  fixedMode?: string;
}

const TOKEN_SYNTAX = /^[A-Za-z0-9_-]{16,512}$/;

export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Reads the kept token, or creates it. A damaged file is an error, never silently replaced. */
export async function loadOrCreateAccessToken(dataDir: string): Promise<StoredToken> {
  const path = join(dataDir, ACCESS_TOKEN_FILE);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const token = newAccessToken();
  try {
    await writeFile(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
    return { token, path, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const text = (await readFile(path, 'utf8')).trim();
  if (!TOKEN_SYNTAX.test(text)) {
    throw new Error(
      `${path} does not hold a token (16+ characters of A-Z a-z 0-9 _ -): fix or delete it, or set MIMO_TOKEN`,
    );
  }
  const mode = (await stat(path)).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    await chmod(path, 0o600);
    return { token: text, path, created: false, fixedMode: mode.toString(8) };
  }
  return { token: text, path, created: false };
}

/** The one-click address of the web UI: opening it hands the token to the UI, which then drops it from the address bar. */
export function oneClickUrl(baseUrl: string, token: string): string {
  const url = new URL(baseUrl);
  url.searchParams.set('token', token);
  return url.href;
}
