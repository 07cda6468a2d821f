// Normalises decoded values for deep comparison: Buffer, Uint8Array and ArrayBuffer become
// `{ bytes: number[] }`, so our Uint8Array and the reference parsers' Buffer compare equal.

export function toPlain(value: unknown): unknown {
  if (value instanceof ArrayBuffer) return { bytes: [...new Uint8Array(value)] };
  if (ArrayBuffer.isView(value))
    return { bytes: [...new Uint8Array(value.buffer, value.byteOffset, value.byteLength)] };
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) out[key] = toPlain(item);
    }
    return out;
  }
  return value;
}
