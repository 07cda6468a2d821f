export { codecError, isCodecError, type CodecError, type CodecErrorCode } from './codec-error.ts';
export { decodeEnginePacket, encodeEnginePacket, type EnginePacket, type EnginePacketType } from './engineio-codec.ts';
export { decodeEnginePayload, encodeEnginePayload, PAYLOAD_SEPARATOR } from './engineio-payload.ts';
export {
  isAckId,
  isDataValid,
  isPacketValid,
  RESERVED_EVENTS,
  SocketPacketType,
  type SocketPacket,
  type SocketPacketTypeCode,
} from './socketio-packet.ts';
export { decodeSocketPacket, DEFAULT_MAX_ATTACHMENTS, encodeSocketPacket } from './socketio-codec.ts';
export { deconstructData, hasBinary, isBinary, reconstructBinaryPacket, type Placeholder } from './socketio-binary.ts';
export { decodeBase64, encodeBase64 } from './base64.ts';
