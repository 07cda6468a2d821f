// Mutations of valid frames for the fuzz and differential loops: flip, insert and delete
// characters, truncate, splice in pieces of other frames, duplicate a slice.
import type { Random } from './seeded-random.ts';

const INTERESTING = [
  '0',
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '9',
  '-',
  '/',
  ',',
  '[',
  ']',
  '{',
  '}',
  '"',
  ':',
  '\\',
  ' ',
  '\n',
  '\x1e',
  'b',
  '=',
  '+',
  'é',
  '😀',
  '\ud800',
  '\u0000',
  '\u007f',
  'e',
  '.',
  'null',
  'true',
  '_placeholder',
];

function randomChar(random: Random): string {
  return random.bool(0.8) ? random.pick(INTERESTING) : String.fromCharCode(random.int(0x10000));
}

export function mutate(random: Random, input: string, donors: readonly string[]): string {
  let out = input;
  const operations = 1 + random.int(3);
  for (let n = 0; n < operations; n++) {
    const at = random.int(out.length + 1);
    switch (random.int(7)) {
      case 0: // flip
        if (out.length > 0) out = out.slice(0, at) + randomChar(random) + out.slice(at + 1);
        break;
      case 1: // insert
        out = out.slice(0, at) + randomChar(random) + out.slice(at);
        break;
      case 2: // delete a run
        out = out.slice(0, at) + out.slice(at + 1 + random.int(3));
        break;
      case 3: // truncate
        out = out.slice(0, at);
        break;
      case 4: {
        // splice a piece of another frame
        const donor = random.pick(donors);
        const from = random.int(donor.length + 1);
        out = out.slice(0, at) + donor.slice(from, from + 1 + random.int(12)) + out.slice(at);
        break;
      }
      case 5: {
        // duplicate a slice
        const length = 1 + random.int(8);
        out = out.slice(0, at) + out.slice(at, at + length) + out.slice(at);
        break;
      }
      default: // digits burst, for ids and attachment counts
        out = out.slice(0, at) + '9'.repeat(1 + random.int(25)) + out.slice(at);
    }
  }
  return out;
}
