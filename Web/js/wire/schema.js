// The messages of Protos/inkwell/v1 (change.proto, pack.proto, sync.proto) as descriptors for message.js.
// Field names are the lowerCamelCase of the proto's; numbers and types must match it exactly.

import { descriptor } from './message.js';

/** @param {number} number @param {string} name @param {import('./message.js').FieldType} type @param {object} [options] */
const field = (number, name, type, options = {}) => ({ number, name, type, ...options });
const repeated = { repeated: true };
/** @param {() => import('./message.js').Descriptor} message */
const of = (message, options = {}) => ({ message, ...options });

// change.proto

export const Change = descriptor('change', [
  field(1, 'replica', 'bytes'),
  field(2, 'seq', 'uint64'),
  field(3, 'stamp', 'fixed64'),
  field(4, 'board', 'string'),
  field(5, 'schemaVersion', 'uint32'),
  field(6, 'operations', 'bytes', repeated),
  // The document type; absent means "board", the only type this page reads.
  field(7, 'type', 'string'),
]);

export const Points = descriptor('points', [
  field(1, 'scale', 'uint32'),
  field(2, 'residuals', 'sint64', repeated),
  field(3, 'raw', 'double', repeated),
  field(4, 'pressures', 'bytes'),
  field(5, 'rawPressures', 'float', repeated),
]);

export const StrokeRef = descriptor('stroke', [
  field(1, 'replica', 'bytes'),
  field(2, 'seq', 'uint64'),
  field(3, 'index', 'uint32'),
]);

export const ChangeRef = descriptor('change_ref', [field(1, 'seq', 'uint64')]);

export const Transform = descriptor('transform', [
  field(1, 'a', 'double'),
  field(2, 'b', 'double'),
  field(3, 'c', 'double'),
  field(4, 'd', 'double'),
  field(5, 'tx', 'double'),
  field(6, 'ty', 'double'),
]);

// `brush`: 0 a pen, 1 a highlighter; any other is a newer schema's (operation.js keeps it as unknown).
export const AddStroke = descriptor('add_stroke', [
  field(1, 'colour', 'fixed32'),
  field(2, 'width', 'double'),
  field(3, 'points', 'message', of(() => Points)),
  field(4, 'brush', 'uint32'),
]);

export const AppendPoints = descriptor('append_points', [
  field(1, 'stroke', 'message', of(() => StrokeRef)),
  field(2, 'points', 'message', of(() => Points)),
]);

export const Erase = descriptor('erase', [
  field(1, 'stroke', 'message', of(() => StrokeRef)),
  field(2, 'bounds', 'double', repeated),
]);

export const SetAttribute = descriptor('set_attribute', [
  field(1, 'stroke', 'message', of(() => StrokeRef)),
  field(2, 'colour', 'fixed32', { oneof: 'value' }),
  field(3, 'width', 'double', { oneof: 'value' }),
  field(4, 'transform', 'message', of(() => Transform, { oneof: 'value' })),
  field(5, 'zOrder', 'double', { oneof: 'value' }),
  field(6, 'deleted', 'bool', { oneof: 'value' }),
  // 0xRRGGBBAA inside the stroke's closed outline; alpha 0 is no fill (and is written, as any member is).
  field(7, 'fill', 'fixed32', { oneof: 'value' }),
]);

export const Clear = descriptor('clear', []);

export const Settle = descriptor('settle', [field(1, 'through', 'uint64'), field(2, 'inactive', 'uint64', repeated)]);

export const AddText = descriptor('add_text', [
  field(1, 'colour', 'fixed32'),
  field(2, 'size', 'double'),
  field(3, 'x', 'double'),
  field(4, 'y', 'double'),
]);

// A run of text after character `offset` of the run `after` (an insert's operation), or at the start when
// `after` is absent.
export const InsertText = descriptor('insert_text', [
  field(1, 'box', 'message', of(() => StrokeRef)),
  field(2, 'after', 'message', of(() => StrokeRef)),
  field(3, 'offset', 'uint32'),
  field(4, 'text', 'string'),
]);

export const TextRange = descriptor('text_range', [
  field(1, 'run', 'message', of(() => StrokeRef)),
  field(2, 'from', 'uint32'),
  field(3, 'to', 'uint32'),
]);

export const DeleteText = descriptor('delete_text', [
  field(1, 'box', 'message', of(() => StrokeRef)),
  field(2, 'ranges', 'message', of(() => TextRange, repeated)),
]);

// An image: the blob holding its bytes (its 32-byte name, its size, its type) and the box it fills.
export const AddImage = descriptor('add_image', [
  field(1, 'blob', 'bytes'),
  field(2, 'size', 'uint64'),
  field(3, 'type', 'string'),
  field(4, 'x', 'double'),
  field(5, 'y', 'double'),
  field(6, 'width', 'double'),
  field(7, 'height', 'double'),
]);

export const Operation = descriptor('operation', [
  field(1, 'addStroke', 'message', of(() => AddStroke, { oneof: 'kind' })),
  field(2, 'appendPoints', 'message', of(() => AppendPoints, { oneof: 'kind' })),
  field(3, 'erase', 'message', of(() => Erase, { oneof: 'kind' })),
  field(4, 'setAttribute', 'message', of(() => SetAttribute, { oneof: 'kind' })),
  field(5, 'undo', 'message', of(() => ChangeRef, { oneof: 'kind' })),
  field(6, 'redo', 'message', of(() => ChangeRef, { oneof: 'kind' })),
  field(7, 'clear', 'message', of(() => Clear, { oneof: 'kind' })),
  field(8, 'settle', 'message', of(() => Settle, { oneof: 'kind' })),
  field(9, 'addText', 'message', of(() => AddText, { oneof: 'kind' })),
  field(10, 'insertText', 'message', of(() => InsertText, { oneof: 'kind' })),
  field(11, 'deleteText', 'message', of(() => DeleteText, { oneof: 'kind' })),
  field(12, 'addImage', 'message', of(() => AddImage, { oneof: 'kind' })),
]);

// pack.proto

/** `Compression` enum values. */
export const Compression = Object.freeze({ none: 0, deflate: 1 });

export const Encryption = descriptor('encryption', [
  field(1, 'scheme', 'string'),
  field(2, 'keyId', 'bytes'),
  field(3, 'nonce', 'bytes'),
]);

// Field 1 (a 16-byte id the client chose) is reserved: a pack's id is the SHA-256 of its bytes. The
// signature is always the last field (see pack-signature.js): a snapshot part's cover (10) is written
// before it, so packs are encoded unsigned and signed after.
export const Pack = descriptor('pack', [
  field(2, 'schemaVersion', 'uint32'),
  field(3, 'compression', 'enum'),
  field(4, 'body', 'bytes'),
  field(5, 'bodySize', 'uint32'),
  field(6, 'encryption', 'message', of(() => Encryption)),
  field(7, 'room', 'string'),
  field(8, 'author', 'bytes'),
  field(9, 'signature', 'bytes'),
  field(10, 'snapshot', 'message', of(() => SnapshotCover)),
]);

export const CutEntry = descriptor('cut_entry', [
  field(1, 'replica', 'bytes'),
  field(2, 'seq', 'uint64'),
  field(3, 'stamp', 'fixed64'),
]);

export const SnapshotCover = descriptor('snapshot', [
  field(1, 'id', 'bytes'),
  field(2, 'position', 'uint64'),
  field(3, 'cut', 'message', of(() => CutEntry, repeated)),
  field(4, 'part', 'uint32'),
  field(5, 'parts', 'uint32'),
]);

export const PackEntry = descriptor('pack_entry', [field(1, 'room', 'string'), field(2, 'change', 'bytes')]);

export const PackBody = descriptor('pack_body', [field(1, 'entries', 'message', of(() => PackEntry, repeated))]);

// sync.proto

export const Hello = descriptor('hello', [
  field(1, 'protocolVersion', 'uint32'),
  field(2, 'minimumProtocolVersion', 'uint32'),
  field(3, 'device', 'bytes'),
  field(4, 'agent', 'string'),
]);

export const ServerLimits = descriptor('limits', [
  field(1, 'maxFrameBytes', 'uint32'),
  field(2, 'maxMessageBytes', 'uint32'),
  field(3, 'maxPackBodyBytes', 'uint32'),
]);

export const Welcome = descriptor('welcome', [
  field(1, 'protocolVersion', 'uint32'),
  field(2, 'server', 'bytes'),
  field(3, 'limits', 'message', of(() => ServerLimits)),
  field(4, 'serverTime', 'uint64'),
]);

export const Subscribe = descriptor('subscribe', [
  field(1, 'room', 'string'),
  field(2, 'after', 'uint64'),
  field(3, 'capability', 'string'),
]);

export const CreateRoom = descriptor('create_room', [
  field(1, 'room', 'string'),
  field(2, 'adminHash', 'bytes'),
  field(3, 'editHash', 'bytes'),
  field(4, 'viewHash', 'bytes'),
]);

export const RotateCapability = descriptor('rotate_capability', [
  field(1, 'room', 'string'),
  field(2, 'adminCapability', 'string'),
  field(3, 'editHash', 'bytes'),
  field(4, 'viewHash', 'bytes'),
]);

/** `Rights` enum values: what a capability lets its holder do in a room. */
export const Rights = Object.freeze({ none: 0, view: 1, edit: 2, admin: 3 });

export const Access = descriptor('access', [
  field(1, 'room', 'string'),
  field(2, 'rights', 'enum'),
  field(3, 'guarded', 'bool'),
]);

export const Unsubscribe = descriptor('unsubscribe', [field(1, 'room', 'string')]);

export const Push = descriptor('push', [field(1, 'room', 'string'), field(2, 'pack', 'bytes')]);

export const Ack = descriptor('ack', [
  field(1, 'room', 'string'),
  field(2, 'packId', 'bytes'),
  field(3, 'serverSeq', 'uint64'),
]);

export const StoredPack = descriptor('stored_pack', [field(1, 'serverSeq', 'uint64'), field(2, 'pack', 'bytes')]);

export const Packs = descriptor('packs', [
  field(1, 'room', 'string'),
  field(2, 'packs', 'message', of(() => StoredPack, repeated)),
  field(3, 'head', 'uint64'),
  // Set when the packs are the parts of the snapshot standing for every position through it.
  field(4, 'rebase', 'uint64'),
]);

export const SnapshotChecked = descriptor('snapshot_checked', [
  field(1, 'room', 'string'),
  field(2, 'snapshot', 'bytes'),
  field(3, 'author', 'bytes'),
  field(4, 'signature', 'bytes'),
]);

export const InkInProgress = descriptor('ink', [
  field(1, 'colour', 'fixed32'),
  field(2, 'width', 'double'),
  field(3, 'points', 'bytes'),
]);

export const Presence = descriptor('presence', [
  field(1, 'room', 'string'),
  field(2, 'device', 'bytes'),
  field(3, 'name', 'string'),
  field(4, 'colour', 'fixed32'),
  field(5, 'cursorX', 'double'),
  field(6, 'cursorY', 'double'),
  field(7, 'hasCursor', 'bool'),
  field(8, 'board', 'string'),
  field(9, 'ink', 'message', of(() => InkInProgress)),
  // In an encrypted room, fields 3–9 sealed as a SealedPresence (see seal.js); those are then empty.
  field(10, 'sealed', 'bytes'),
]);

export const SealedPresence = descriptor('sealed_presence', [
  field(3, 'name', 'string'),
  field(4, 'colour', 'fixed32'),
  field(5, 'cursorX', 'double'),
  field(6, 'cursorY', 'double'),
  field(7, 'hasCursor', 'bool'),
  field(8, 'board', 'string'),
  field(9, 'ink', 'message', of(() => InkInProgress)),
]);

export const PresenceBatch = descriptor('presences', [
  field(1, 'presences', 'message', of(() => Presence, repeated)),
]);

export const Progress = descriptor('progress', [
  field(1, 'room', 'string'),
  field(2, 'head', 'uint64'),
  field(3, 'bytesBehind', 'uint64'),
  field(4, 'packsBehind', 'uint64'),
]);

export const ServerError = descriptor('error', [
  field(1, 'code', 'uint32'),
  field(2, 'message', 'string'),
  field(3, 'fatal', 'bool'),
  field(4, 'room', 'string'),
]);

export const ClientFrame = descriptor('client_frame', [
  field(1, 'hello', 'message', of(() => Hello, { oneof: 'frame' })),
  field(2, 'subscribe', 'message', of(() => Subscribe, { oneof: 'frame' })),
  field(3, 'unsubscribe', 'message', of(() => Unsubscribe, { oneof: 'frame' })),
  field(4, 'push', 'message', of(() => Push, { oneof: 'frame' })),
  field(5, 'presence', 'message', of(() => Presence, { oneof: 'frame' })),
  field(6, 'createRoom', 'message', of(() => CreateRoom, { oneof: 'frame' })),
  field(7, 'rotateCapability', 'message', of(() => RotateCapability, { oneof: 'frame' })),
  field(8, 'snapshotChecked', 'message', of(() => SnapshotChecked, { oneof: 'frame' })),
]);

export const ServerFrame = descriptor('server_frame', [
  field(1, 'welcome', 'message', of(() => Welcome, { oneof: 'frame' })),
  field(2, 'ack', 'message', of(() => Ack, { oneof: 'frame' })),
  field(3, 'packs', 'message', of(() => Packs, { oneof: 'frame' })),
  field(4, 'presence', 'message', of(() => Presence, { oneof: 'frame' })),
  field(5, 'progress', 'message', of(() => Progress, { oneof: 'frame' })),
  field(6, 'error', 'message', of(() => ServerError, { oneof: 'frame' })),
  field(7, 'presences', 'message', of(() => PresenceBatch, { oneof: 'frame' })),
  field(8, 'access', 'message', of(() => Access, { oneof: 'frame' })),
]);
