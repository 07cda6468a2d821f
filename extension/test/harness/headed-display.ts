// A real X display for headed Chromium: Xvfb (a free display number chosen by Xvfb itself via
// -displayfd) with the openbox window manager, so windows get real focus and stacking, and
// xdotool types through the X server like a keyboard would. Debian packages: xvfb, openbox,
// xdotool (`.ci/run` installs them when missing).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface HeadedDisplay {
  /** e.g. `:99`, for the DISPLAY of child processes. */
  display: string;
  /** Runs xdotool on this display; rejects on a non-zero exit. */
  xdotool(args: string[]): Promise<string>;
  close(): Promise<void>;
}

const TOOLS = { Xvfb: '/usr/bin/Xvfb', openbox: '/usr/bin/openbox', xdotool: '/usr/bin/xdotool' } as const;

export function requireHeadedTools(): void {
  const missing = Object.entries(TOOLS)
    .filter(([, path]) => !existsSync(path))
    .map(([name]) => name);
  if (missing.length > 0) {
    throw new Error(
      `headed tests need ${missing.join(', ')}: install them with "apt-get install -y xvfb openbox xdotool"`,
    );
  }
}

function readDisplayNumber(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`Xvfb did not report a display within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /^(\d+)\s*$/m.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(`:${match[1]}`);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}) before reporting a display`));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Waits until a window manager owns the screen (openbox sets _NET_SUPPORTING_WM_CHECK). */
async function waitForWindowManager(display: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const probe = spawnSync(TOOLS.xdotool, ['getactivewindow'], {
      env: { ...process.env, DISPLAY: display },
      encoding: 'utf8',
    });
    // Without a WM xdotool says the WM "claims not to support _NET_ACTIVE_WINDOW"; once openbox
    // runs it answers (or finds no active window yet).
    if (!/claims not to support/i.test(probe.stderr ?? '')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`openbox did not take the display within ${timeoutMs} ms`);
}

export async function startHeadedDisplay(
  options: { width?: number; height?: number; timeoutMs?: number } = {},
): Promise<HeadedDisplay> {
  requireHeadedTools();
  const size = `${options.width ?? 1280}x${options.height ?? 900}x24`;
  const xvfb = spawn(TOOLS.Xvfb, ['-displayfd', '1', '-screen', '0', size, '-nolisten', 'tcp'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const children: ChildProcess[] = [xvfb];
  const killOnExit = () => children.forEach((child) => child.kill('SIGKILL'));
  process.once('exit', killOnExit);
  const close = async () => {
    process.off('exit', killOnExit);
    for (const child of [...children].reverse()) await stop(child);
  };
  try {
    const display = await readDisplayNumber(xvfb, options.timeoutMs ?? 10_000);
    const env = { ...process.env, DISPLAY: display };
    const wm = spawn(TOOLS.openbox, ['--sm-disable'], { env, stdio: 'ignore' });
    children.push(wm);
    await waitForWindowManager(display, options.timeoutMs ?? 10_000);
    const xdotool = (args: string[]) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(TOOLS.xdotool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk) => (out += chunk));
        child.stderr.on('data', (chunk) => (err += chunk));
        child.once('exit', (code) =>
          code === 0
            ? resolve(out.trim())
            : reject(new Error(`xdotool ${args.join(' ')} exited ${code}: ${err.trim()}`)),
        );
      });
    return { display, xdotool, close };
  } catch (error) {
    await close();
    throw error;
  }
}
