/**
 * An image in the SVG export, the same text Swift's `SVGExporter` writes for it: an `<image>` filling its
 * box with its bytes as a data URL, stretched as the board stretches it; where the bytes are not at hand, the
 * grey box Swift draws, naming the blob.
 */

import { PLACEHOLDER_FILL } from './image-painter.js';

/**
 * @param {{id: string, points: [number, number][], image?: import('../model/board-image.js').BoardImage}} stroke
 * @param {(value: number) => string} number formats a number as the rest of the document does
 * @param {string} transform the transform attribute, or ''
 * @param {Uint8Array | null} bytes the image's bytes (opened, in an encrypted room), or null
 */
export function imageElement(stroke, number, transform, bytes) {
  const image = /** @type {import('../model/board-image.js').BoardImage} */ (stroke.image);
  const [x, y] = stroke.points[0];
  const box = `x="${number(x)}" y="${number(y)}" width="${number(image.width)}" height="${number(image.height)}"${transform}`;
  if (bytes === null) return `<rect data-stroke="${stroke.id}" data-blob="${image.blob}" ${box} fill="${PLACEHOLDER_FILL}"/>\n`;
  return `<image data-stroke="${stroke.id}" ${box} preserveAspectRatio="none" href="data:${image.type};base64,${base64(bytes)}"/>\n`;
}

/** Standard base64 with padding and no line breaks, as Foundation's `base64EncodedString()`. @param {Uint8Array} bytes */
export function base64(bytes) {
  let binary = '';
  // In slices: one call per byte would be slow, one call for all would pass too many arguments.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
