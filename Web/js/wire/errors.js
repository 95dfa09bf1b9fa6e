// Why bytes could not be decoded (or a value could not be encoded).
//
// Mirrors InkwellWire's `WireError` (Sources/InkwellWire/WireError.swift): the same codes and the same
// messages, so a browser and a Swift peer report the same failure in the same words. Safe to log: a
// message names what was wrong, never the content.
//
// `badSignature`, `forgedAuthor` and `wrongRoom` say a pack is not what it claims to be: keep it aside
// with that reason, never decode it into a board. So do `wrongKey` (sealed with another room key than the
// holder's), `tampered` (a sealed body, or its header, altered: AES-GCM does not authenticate it) and
// `unsealed` (plain bytes in an encrypted room, which anyone without the key, the relay included, can make).
// A pack that is a part of a room snapshot is `snapshotPart` to the pack decoder (snapshot-part.js reads
// it); `invalidSnapshot` says a snapshot, or one of its parts, is not what it claims.

/**
 * @typedef {'malformed' | 'tooLarge' | 'missingField' | 'invalidField' | 'unsupportedCompression'
 *   | 'encrypted' | 'futureSchema' | 'unrepresentable' | 'badSignature' | 'forgedAuthor' | 'wrongRoom'
 *   | 'otherType' | 'unsupportedEncryption' | 'wrongKey' | 'tampered' | 'unsealed' | 'snapshotPart'
 *   | 'notSnapshot' | 'invalidSnapshot'} WireErrorCode
 */

/** The one error type the wire codecs throw. */
export class WireError extends Error {
  /**
   * @param {WireErrorCode} code
   * @param {string | number | null} detail what was wrong (a message or field name, or a schema version)
   * @param {string} message
   * @param {unknown} [cause]
   */
  constructor(code, detail, message, cause) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'WireError';
    /** @type {WireErrorCode} */
    this.code = code;
    this.detail = detail;
  }

  /** The schema version, when the bytes come from a newer schema: keep them aside and decode after an upgrade. */
  get schemaVersion() {
    return this.code === 'futureSchema' ? /** @type {number} */ (this.detail) : null;
  }

  /** Not a valid encoding of the expected message (truncated, garbage, wrong wire types). */
  static malformed(what, cause) {
    return new WireError('malformed', what, `malformed ${what}`, cause);
  }

  /** Over a documented limit; nothing larger than the limit was allocated. */
  static tooLarge(what) {
    return new WireError('tooLarge', what, `${what} exceeds its size limit`);
  }

  static missingField(name) {
    return new WireError('missingField', name, `required field ${name} is missing`);
  }

  static invalidField(name) {
    return new WireError('invalidField', name, `field ${name} is out of range`);
  }

  static unsupportedCompression() {
    return new WireError('unsupportedCompression', null, 'unsupported compression');
  }

  /** The pack is encrypted, and this reader holds no key for it. */
  static encrypted() {
    return new WireError('encrypted', null, 'the pack is encrypted and no key is available');
  }

  /** Sealed by a scheme this code does not know (only "aes-256-gcm" is). */
  static unsupportedEncryption() {
    return new WireError('unsupportedEncryption', null, 'unsupported encryption scheme');
  }

  /** Sealed with another room key than the one held: the key ids differ, so nothing was tried. */
  static wrongKey() {
    return new WireError('wrongKey', null, 'sealed with another room key');
  }

  /**
   * Sealed bytes that do not authenticate with the key held: altered, cut short, moved into another room's
   * or author's envelope, or sealed with another key under a forged key id.
   */
  static tampered() {
    return new WireError('tampered', null, 'the sealed bytes do not authenticate with the room key');
  }

  /** Plain bytes where the room is encrypted: refused rather than shown beside the room's sealed content. */
  static unsealed() {
    return new WireError('unsealed', null, 'not sealed, though the room is encrypted');
  }

  /** A change of another document type than the board: kept aside, passed on, never applied. @param {string} type */
  static otherType(type) {
    return new WireError('otherType', type, `the change is of another document type (${type.slice(0, 64)})`);
  }

  /** Written by a newer schema than this code knows. @param {number} version */
  static futureSchema(version) {
    return new WireError('futureSchema', version, `written by schema ${version}, newer than this version reads`);
  }

  /** A pack whose signature does not verify against the key it names. */
  static badSignature() {
    return new WireError('badSignature', null, "the pack's signature does not verify");
  }

  /** A pack holding a change of a replica other than its signer's. */
  static forgedAuthor() {
    return new WireError('forgedAuthor', null, 'the pack holds a change of a replica its signer does not own');
  }

  /** A pack signed for another room than the one it arrived for. */
  static wrongRoom() {
    return new WireError('wrongRoom', null, 'the pack was signed for another room');
  }

  /** A part of a room snapshot where a pack was expected: read it with `decodeSnapshotPart`. */
  static snapshotPart() {
    return new WireError('snapshotPart', null, 'the pack is a part of a room snapshot');
  }

  /** A pack where a part of a room snapshot was expected. */
  static notSnapshot() {
    return new WireError('notSnapshot', null, 'the pack is not a part of a room snapshot');
  }

  /**
   * A snapshot, or a part of one, that does not hold what its cover claims. @param {string} why plain
   * words, naming no content
   */
  static invalidSnapshot(why) {
    return new WireError('invalidSnapshot', why, `the snapshot is not what it claims: ${why}`);
  }

  /**
   * A 64-bit value above 2^53 − 1 where this code uses a Number (Swift reads it; JavaScript cannot hold
   * it exactly), so it is refused rather than rounded.
   */
  static unrepresentable(name) {
    return new WireError('unrepresentable', name, `field ${name} does not fit in a JavaScript number`);
  }
}
