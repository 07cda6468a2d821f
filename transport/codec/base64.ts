// Standard base64 (RFC 4648 §4, alphabet `A-Z a-z 0-9 + /`) over Uint8Array, so the codec
// needs neither node:buffer nor atob/btoa. Decoding is strict where Node's Buffer is lenient:
// characters outside the alphabet, misplaced `=` or an impossible length are rejected.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const DECODE_TABLE: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/** Padded base64, as Node's `buffer.toString('base64')` writes it. */
export function encodeBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  const full = bytes.length - (bytes.length % 3);
  let chunk = '';
  for (let i = 0; i < full; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    chunk += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
    if (chunk.length >= 8192) {
      parts.push(chunk);
      chunk = '';
    }
  }
  const rest = bytes.length - full;
  if (rest === 1) {
    const n = bytes[full]! << 16;
    chunk += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + '==';
  } else if (rest === 2) {
    const n = (bytes[full]! << 16) | (bytes[full + 1]! << 8);
    chunk += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + '=';
  }
  parts.push(chunk);
  return parts.join('');
}

/** Decodes padded or unpadded base64; returns null on anything that is not base64. */
export function decodeBase64(text: string): Uint8Array | null {
  let end = text.length;
  if (end % 4 === 0 && end > 0 && text.charCodeAt(end - 1) === 61 /* = */) {
    end--;
    if (text.charCodeAt(end - 1) === 61) end--;
  }
  if (end % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? DECODE_TABLE[code]! : -1;
    if (value < 0) return null;
    acc = ((acc << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}
