// A tiny PNG encoder for the scripted server's "screenshots": a page-like picture (title bar,
// heading, text lines) so a thumbnail is recognisable in the UI screenshots.
import { crc32, deflateSync } from 'node:zlib';

type Rgb = [number, number, number];

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), row + 1 + x * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 640x400 picture of a simple web page, tinted by `accent`. */
export function pageScreenshot(accent: Rgb = [36, 87, 214]): Buffer {
  const lines = [120, 150, 170, 190, 210, 240, 260, 280];
  return encodePng(640, 400, (x, y) => {
    if (y < 28) return [222, 226, 232];
    if (y >= 60 && y < 96 && x >= 60 && x < 420) return accent;
    for (const top of lines)
      if (y >= top && y < top + 8 && x >= 60 && x < 60 + ((top * 7) % 380) + 160) return [150, 156, 166];
    if (y >= 320 && y < 350 && x >= 60 && x < 180) return accent;
    return [250, 250, 252];
  });
}
