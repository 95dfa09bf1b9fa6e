/**
 * QR codes (ISO/IEC 18004) for the hub's address on the share dialog: a phone on the same network points
 * its camera at it instead of typing an IP address. Byte mode, error correction level M (15 % of the
 * symbol may be lost), versions 1 to 10: up to 213 bytes, enough for any board link. Text beyond ASCII is
 * marked UTF-8 (ECI 26).
 *
 * The steps are the standard's: data codewords, Reed–Solomon error correction per block, interleaving,
 * placement around the function patterns, then the mask of the eight whose penalty is lowest.
 */

/** Per version 1–10 at level M: error correction codewords per block, and the blocks' data codewords. */
const BLOCKS = [
  null,
  { ec: 10, data: [16] },
  { ec: 16, data: [28] },
  { ec: 26, data: [44] },
  { ec: 18, data: [32, 32] },
  { ec: 24, data: [43, 43] },
  { ec: 16, data: [27, 27, 27, 27] },
  { ec: 18, data: [31, 31, 31, 31] },
  { ec: 22, data: [38, 38, 39, 39] },
  { ec: 22, data: [36, 36, 36, 37, 37] },
  { ec: 26, data: [43, 43, 43, 43, 44] },
];

/** Centres of the alignment patterns, per version. */
const ALIGNMENT = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];

/** The most bytes a code holds. */
export const MAXIMUM_QR_BYTES = 213;

/**
 * The modules of a QR code for `text` (UTF-8, byte mode), row by row: true is dark. No quiet zone.
 * @param {string} text
 * @returns {boolean[][]}
 * @throws {RangeError} for text over {@link MAXIMUM_QR_BYTES} bytes
 */
export function qrCode(text) {
  const bytes = new TextEncoder().encode(text);
  // Text beyond ASCII says it is UTF-8 (ECI 26), or readers guess Latin-1 or Shift JIS.
  const eci = bytes.some((byte) => byte >= 0x80);
  let version = 1;
  while (version <= 10 && capacity(version) - (eci ? 2 : 0) < bytes.length) version++;
  if (version > 10) throw new RangeError(`a QR code here holds at most ${MAXIMUM_QR_BYTES} bytes, not ${bytes.length}`);
  const codewords = interleave(version, dataCodewords(version, bytes, eci));
  const size = version * 4 + 17;
  const modules = Array.from({ length: size }, () => new Array(size).fill(false));
  const reserved = Array.from({ length: size }, () => new Array(size).fill(false));
  drawFunctionPatterns(version, modules, reserved);
  placeData(codewords, modules, reserved);
  let best = null;
  let bestPenalty = Infinity;
  for (let mask = 0; mask < 8; mask++) {
    const candidate = modules.map((row) => row.slice());
    applyMask(mask, candidate, reserved);
    drawFormat(mask, candidate);
    const score = penalty(candidate);
    if (score < bestPenalty) {
      best = candidate;
      bestPenalty = score;
    }
  }
  return /** @type {boolean[][]} */ (best);
}

/** Bytes a version holds in byte mode at level M. @param {number} version */
function capacity(version) {
  const dataBits = BLOCKS[version].data.reduce((a, b) => a + b, 0) * 8;
  return Math.floor((dataBits - 4 - (version < 10 ? 8 : 16)) / 8);
}

/**
 * Mode, count, bytes, terminator and padding, as codewords; first the UTF-8 ECI with `eci`.
 * @param {number} version @param {Uint8Array} bytes @param {boolean} eci
 */
function dataCodewords(version, bytes, eci) {
  const total = BLOCKS[version].data.reduce((a, b) => a + b, 0);
  /** @type {number[]} */
  const bits = [];
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  if (eci) {
    put(0b0111, 4);
    put(26, 8);
  }
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  put(0, Math.min(4, total * 8 - bits.length));
  while (bits.length % 8 !== 0) bits.push(0);
  const codewords = [];
  for (let i = 0; i < bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; codewords.length < total; pad ^= 0xec ^ 0x11) codewords.push(pad);
  return codewords;
}

/** Splits the data into blocks, adds each block's error correction, and interleaves them. */
function interleave(version, data) {
  const { ec, data: sizes } = BLOCKS[version];
  const divisor = generator(ec);
  const blocks = [];
  let at = 0;
  for (const size of sizes) {
    const block = data.slice(at, at + size);
    at += size;
    blocks.push({ data: block, ec: remainder(block, divisor) });
  }
  const result = [];
  for (let i = 0; i < Math.max(...sizes); i++) for (const block of blocks) if (i < block.data.length) result.push(block.data[i]);
  for (let i = 0; i < ec; i++) for (const block of blocks) result.push(block.ec[i]);
  return result;
}

// Reed–Solomon over GF(256) with the polynomial x⁸ + x⁴ + x³ + x² + 1.

function multiply(x, y) {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}

/** The generator polynomial of degree `degree`, without its leading 1. */
function generator(degree) {
  const result = new Array(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = multiply(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = multiply(root, 0x02);
  }
  return result;
}

function remainder(data, divisor) {
  const result = new Array(divisor.length).fill(0);
  for (const byte of data) {
    const factor = byte ^ /** @type {number} */ (result.shift());
    result.push(0);
    for (let i = 0; i < divisor.length; i++) result[i] ^= multiply(divisor[i], factor);
  }
  return result;
}

// The symbol.

function drawFunctionPatterns(version, modules, reserved) {
  const size = modules.length;
  const set = (x, y, dark) => {
    modules[y][x] = dark;
    reserved[y][x] = true;
  };
  for (let i = 0; i < size; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        if (x < 0 || y < 0 || x >= size || y >= size) continue;
        const distance = Math.max(Math.abs(dx), Math.abs(dy));
        set(x, y, distance !== 2 && distance !== 4);
      }
    }
  }
  const centres = ALIGNMENT[version];
  for (const cy of centres) {
    for (const cx of centres) {
      // Not over the finder patterns.
      if ((cx === 6 && cy === 6) || (cx === 6 && cy === centres.at(-1)) || (cx === centres.at(-1) && cy === 6)) continue;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }
  }
  // The format areas, reserved now and drawn per mask; the dark module.
  drawFormat(0, modules, reserved);
  if (version >= 7) {
    let rem = version;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      set(a, b, dark);
      set(b, a, dark);
    }
  }
}

/** The format information (level M, `mask`) in both copies, and the dark module. */
function drawFormat(mask, modules, reserved = null) {
  const size = modules.length;
  const data = (0b00 << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  const bits = ((data << 10) | rem) ^ 0x5412;
  const set = (x, y, dark) => {
    modules[y][x] = dark;
    if (reserved) reserved[y][x] = true;
  };
  const bit = (i) => ((bits >>> i) & 1) === 1;
  for (let i = 0; i <= 5; i++) set(8, i, bit(i));
  set(8, 7, bit(6));
  set(8, 8, bit(7));
  set(7, 8, bit(8));
  for (let i = 9; i < 15; i++) set(14 - i, 8, bit(i));
  for (let i = 0; i < 8; i++) set(size - 1 - i, 8, bit(i));
  for (let i = 8; i < 15; i++) set(8, size - 15 + i, bit(i));
  set(8, size - 8, true);
}

/** The codewords' bits, up and down the columns in pairs from the right, around what is reserved. */
function placeData(codewords, modules, reserved) {
  const size = modules.length;
  let i = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let vertical = 0; vertical < size; vertical++) {
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        const upward = ((right + 1) & 2) === 0;
        const y = upward ? size - 1 - vertical : vertical;
        if (reserved[y][x]) continue;
        if (i < codewords.length * 8) modules[y][x] = ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
        i++;
      }
    }
  }
}

const MASKS = [
  (x, y) => (x + y) % 2 === 0,
  (x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

function applyMask(mask, modules, reserved) {
  for (let y = 0; y < modules.length; y++) {
    for (let x = 0; x < modules.length; x++) if (!reserved[y][x] && MASKS[mask](x, y)) modules[y][x] = !modules[y][x];
  }
}

/** The standard's penalty: runs, 2×2 blocks, finder-like patterns and the balance of dark and light. */
function penalty(modules) {
  const size = modules.length;
  let score = 0;
  const lines = [];
  for (let y = 0; y < size; y++) lines.push(modules[y]);
  for (let x = 0; x < size; x++) lines.push(modules.map((row) => row[x]));
  for (const line of lines) {
    let run = 1;
    for (let i = 1; i <= size; i++) {
      if (i < size && line[i] === line[i - 1]) {
        run++;
        continue;
      }
      if (run >= 5) score += run - 2;
      run = 1;
    }
    // 1:1:3:1:1 with four light modules on one side.
    const text = line.map((dark) => (dark ? '1' : '0')).join('');
    for (const pattern of ['10111010000', '00001011101']) {
      for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + 1)) score += 40;
    }
  }
  for (let y = 0; y < size - 1; y++) {
    for (let x = 0; x < size - 1; x++) {
      const dark = modules[y][x];
      if (dark === modules[y][x + 1] && dark === modules[y + 1][x] && dark === modules[y + 1][x + 1]) score += 3;
    }
  }
  const darks = modules.reduce((sum, row) => sum + row.filter(Boolean).length, 0);
  score += Math.floor(Math.abs(darks * 20 - size * size * 10) / (size * size)) * 10;
  return score;
}

/**
 * The code as an SVG document: one path of unit squares, a quiet zone of four modules.
 * @param {boolean[][]} modules
 * @returns {string}
 */
export function qrSVG(modules) {
  const size = modules.length + 8;
  let path = '';
  modules.forEach((row, y) => row.forEach((dark, x) => (path += dark ? `M${x + 4},${y + 4}h1v1h-1z` : '')));
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
