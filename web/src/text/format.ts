// Small display formatters shared by the components.

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return '';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatAgo(timestamp: number, now: number): string {
  const s = Math.max(0, Math.round((now - timestamp) / 1000));
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  return new Date(timestamp).toLocaleDateString();
}

export function formatTokens(n: number): string {
  return n < 1000 ? String(n) : n < 1_000_000 ? `${(n / 1000).toFixed(1)}k` : `${(n / 1_000_000).toFixed(2)}M`;
}

/** Only http(s) and same-origin paths may become an image source. */
export function safeImageSrc(url: string): string | null {
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  return /^https?:\/\//i.test(url) ? url : null;
}

/** Where an artifact is shown from: its URL, or the server's download route when none was given. */
export function artifactSrc(artifact: { artifactId: string; url: string }): string | null {
  return safeImageSrc(
    artifact.url.trim() === '' ? `/api/artifacts/${encodeURIComponent(artifact.artifactId)}` : artifact.url,
  );
}
