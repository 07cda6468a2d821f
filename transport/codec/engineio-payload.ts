// Engine.IO v4 HTTP long-polling payloads: packets joined by the record separator U+001E,
// binary ones always as `b` + base64 (engine.io-parser's encodePayload / decodePayload).
import { codecError, type CodecError } from './codec-error.ts';
import { decodeEnginePacket, encodeEnginePacket, type EnginePacket } from './engineio-codec.ts';

export const PAYLOAD_SEPARATOR = '\x1e';

export function encodeEnginePayload(packets: EnginePacket[]): string {
  return packets.map((packet) => encodeEnginePacket(packet, false) as string).join(PAYLOAD_SEPARATOR);
}

/**
 * Decodes a whole payload or nothing: the length (UTF-16 code units) is checked against
 * `maxPayload` before anything is split or parsed, and the first bad packet makes the whole
 * payload a CodecError (engine.io closes the transport on a parser error anyway).
 */
export function decodeEnginePayload(input: string, maxPayload: number): EnginePacket[] | CodecError {
  if (typeof input !== 'string') return codecError('BAD_PAYLOAD', 'expected a string payload');
  if (input.length > maxPayload) {
    return codecError('TOO_LARGE', `payload of ${input.length} characters exceeds maxPayload ${maxPayload}`);
  }
  const packets: EnginePacket[] = [];
  const encodedPackets = input.split(PAYLOAD_SEPARATOR);
  for (let i = 0; i < encodedPackets.length; i++) {
    const packet = decodeEnginePacket(encodedPackets[i]!);
    if (packet.type === 'error') return codecError(packet.code, `packet ${i} of payload: ${packet.message}`);
    packets.push(packet);
  }
  return packets;
}
