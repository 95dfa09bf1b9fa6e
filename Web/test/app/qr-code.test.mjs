// QR codes for a LAN hub's address (js/app/qr-code.js): each one drawn is read back by zbarimg (zbar-tools,
// which Scripts/install-packages.sh installs), an independent decoder, across every version the encoder
// makes; and the symbol's fixed parts are where the standard puts them.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { MAXIMUM_QR_BYTES, qrCode, qrSVG } from '../../js/app/qr-code.js';

/** Whether zbarimg is here; in CI it must be. */
function zbarimg() {
  try {
    execFileSync('zbarimg', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    if (process.env.CI) throw new Error('CI installs zbar-tools (Scripts/install-packages.sh): zbarimg is missing');
    return false;
  }
}

/** The code as a PGM image, 4 pixels a module, with its quiet zone, as a camera would see a screen. */
function pgm(modules) {
  const scale = 4;
  const side = (modules.length + 8) * scale;
  const pixels = Buffer.alloc(side * side, 255);
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (!dark) return;
      for (let dy = 0; dy < scale; dy++) pixels.fill(0, ((y + 4) * scale + dy) * side + (x + 4) * scale, ((y + 4) * scale + dy) * side + (x + 5) * scale);
    }),
  );
  return Buffer.concat([Buffer.from(`P5 ${side} ${side} 255\n`), pixels]);
}

test('every QR code drawn reads back as its text, versions 1 to 10', (t) => {
  if (!zbarimg()) return t.skip('zbarimg is not installed (bash Scripts/install-packages.sh installs it)');
  const folder = mkdtempSync(join(tmpdir(), 'qr-'));
  try {
    const texts = ['http://10.0.0.5:8080/'];
    // Lengths that land in each version, up to the most one holds.
    for (const length of [20, 30, 50, 70, 90, 110, 130, 150, 180, MAXIMUM_QR_BYTES]) {
      const base = 'http://192.168.178.23:45549/r/aB3dE5fG7hJ9kL1mN3pQ5r?cap=E';
      texts.push((base + 'x'.repeat(length)).slice(0, length));
    }
    texts.push('http://hub.local:8080/r/room#key=ümlaut-ü');
    const sizes = new Set();
    for (const [index, text] of texts.entries()) {
      const modules = qrCode(text);
      sizes.add(modules.length);
      const file = join(folder, `code-${index}.pgm`);
      writeFileSync(file, pgm(modules));
      const read = execFileSync('zbarimg', ['-q', '--raw', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).replace(/\n$/, '');
      assert.equal(read, text, `code ${index} (${modules.length} modules a side)`);
    }
    assert.ok(sizes.size >= 8, `versions drawn: ${[...sizes].sort((a, b) => a - b)}`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('the finder patterns, timing lines and dark module are where the standard puts them', () => {
  const modules = qrCode('http://10.0.0.5:8080/');
  const size = modules.length;
  assert.equal((size - 17) % 4, 0);
  for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
    assert.equal(modules[cy][cx], true, 'a finder pattern\'s centre is dark');
    assert.equal(modules[cy - 2][cx], false, 'inside its ring, a light one');
    assert.equal(modules[cy - 3][cx], true, 'its ring is dark');
  }
  for (let i = 8; i < size - 8; i++) {
    assert.equal(modules[6][i], i % 2 === 0, 'the horizontal timing line alternates');
    assert.equal(modules[i][6], i % 2 === 0, 'the vertical timing line alternates');
  }
  assert.equal(modules[size - 8][8], true, 'the dark module');
});

test('text longer than a code holds is refused, and an SVG has its quiet zone', () => {
  assert.throws(() => qrCode('x'.repeat(MAXIMUM_QR_BYTES + 1)), RangeError);
  const svg = qrSVG(qrCode('hi'));
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 29 29"/);
});
