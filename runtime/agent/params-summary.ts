// `tabId=12 clickId=4 text="hello"`: a short, human-readable line for a toolUsed step.
const MAX = 120;

export function paramsSummaryOf(params: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const shown =
      typeof value === 'string'
        ? JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value)
        : JSON.stringify(value);
    parts.push(`${key}=${shown}`);
  }
  const line = parts.join(' ');
  return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line;
}
