/**
 * A text box in the SVG export, the same text Swift's `SVGExporter` writes for it: a `<text>` with a
 * `<tspan>` per line that is not empty, on the layout's baselines (text-layout.js), spaces kept.
 */

import { FONT_FAMILY, baseline, textLines } from './text-layout.js';

/**
 * The element for a box, or '' for one with no text.
 * @param {{id: string, width: number, points: [number, number][], text?: string}} box
 * @param {(value: number) => string} number formats a number as the rest of the document does
 * @param {string} fill the fill attributes (` fill="#rrggbb"` and maybe ` fill-opacity`)
 * @param {string} transform the transform attribute, or ''
 */
export function textElement(box, number, fill, transform) {
  const text = box.text ?? '';
  if (text === '') return '';
  const [x, y] = box.points[0];
  const size = box.width;
  let element = `<text data-stroke="${box.id}" font-family="${FONT_FAMILY}" font-size="${number(size)}" xml:space="preserve"${fill}${transform}>`;
  for (const [index, line] of textLines(text).entries()) {
    if (line === '') continue;
    element += `<tspan x="${number(x)}" y="${number(baseline(y, size, index))}">${escapeText(line)}</tspan>`;
  }
  return `${element}</text>\n`;
}

/**
 * Text as XML character data, as Swift escapes it: markup escaped, a tab as a reference, and characters
 * XML 1.0 cannot hold at all (other controls, U+FFFE, U+FFFF) dropped.
 * @param {string} text
 */
export function escapeText(text) {
  let result = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '&') result += '&amp;';
    else if (char === '<') result += '&lt;';
    else if (char === '>') result += '&gt;';
    else if (char === '\t') result += '&#9;';
    else if (code < 0x20 || code === 0xfffe || code === 0xffff) continue;
    else result += char;
  }
  return result;
}
