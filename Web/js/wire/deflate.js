// Raw deflate (RFC 1951, no zlib header) through the platform's CompressionStream, as Swift's packs use
// (zlib at level 1 with a window of at most 32 KiB: `PackCodec.Compression.deflate`; Swift sends a body
// plain when deflate does not make it smaller). Any level and window inflates the same.
//
// The compressed bytes need not match Swift's byte for byte (zlib builds differ: Node and Chromium ship
// Chromium's zlib); any valid stream of the same body decodes the same. A pack's id is the hash of its
// bytes, so it does depend on them: one engine deflates the same body the same way every time, and a pack
// waiting for its ack is kept byte for byte (and pushed again as it is), never deflated again.

/**
 * @param {Uint8Array} bytes
 * @returns {Promise<Uint8Array>}
 */
export async function deflateRaw(bytes) {
  let raw = true;
  let compressor;
  try {
    compressor = new CompressionStream(/** @type {any} */ ('deflate-raw'));
  } catch {
    // Older engines know only zlib's format: the same deflate stream inside a 2-byte header and a
    // 4-byte Adler-32 trailer.
    raw = false;
    compressor = new CompressionStream('deflate');
  }
  const stream = new Blob([bytes]).stream().pipeThrough(compressor);
  const compressed = new Uint8Array(await new Response(stream).arrayBuffer());
  return raw ? compressed : compressed.slice(2, compressed.length - 4);
}
