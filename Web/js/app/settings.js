/**
 * The drawing settings a person expects to find again: tool, colour, width, shape recognition, text size.
 * Kept in localStorage; anything stored that does not make sense falls back to the default.
 */

const KEY = 'inkwell.settings';

/** The palette: readable on both themes (dark inks are lightened on the dark board). */
export const PALETTE = Object.freeze([
  { name: 'Black', colour: 0x1e1e1eff },
  { name: 'Red', colour: 0xe03131ff },
  { name: 'Orange', colour: 0xf08c00ff },
  { name: 'Green', colour: 0x2f9e44ff },
  { name: 'Blue', colour: 0x1971c2ff },
  { name: 'Violet', colour: 0x9c36b5ff },
]);

/** The drawing tools, by the name their buttons carry (`tool-<name>`). */
export const TOOLS = Object.freeze(['select', 'lasso', 'pen', 'highlighter', 'eraser', 'stroke-eraser', 'text']);
/** The pen widths offered, in board pixels. */
export const MINIMUM_WIDTH = 1;
export const MAXIMUM_WIDTH = 32;

/** The text sizes offered for new text boxes, in board pixels, by the names their buttons show. */
export const TEXT_SIZES = Object.freeze([
  { name: 'S', label: 'Small', size: 16 },
  { name: 'M', label: 'Medium', size: 24 },
  { name: 'L', label: 'Large', size: 36 },
  { name: 'XL', label: 'Extra large', size: 56 },
]);

/**
 * @typedef {{tool: string, colour: number, width: number, shapes: boolean, textSize: number}} Settings
 */

/** @returns {Settings} */
export function defaultSettings() {
  return { tool: 'pen', colour: PALETTE[0].colour, width: 4, shapes: false, textSize: TEXT_SIZES[1].size };
}

/**
 * The stored settings, each checked, over the defaults.
 * @param {Storage | null} storage
 * @returns {Settings}
 */
export function loadSettings(storage) {
  const settings = defaultSettings();
  let stored = null;
  try {
    stored = JSON.parse(storage?.getItem(KEY) ?? 'null');
  } catch {
    stored = null;
  }
  if (stored === null || typeof stored !== 'object') return settings;
  if (TOOLS.includes(stored.tool)) settings.tool = stored.tool;
  if (Number.isInteger(stored.colour) && stored.colour >= 0 && stored.colour <= 0xffffffff) settings.colour = stored.colour;
  if (Number.isFinite(stored.width)) settings.width = clampWidth(stored.width);
  if (typeof stored.shapes === 'boolean') settings.shapes = stored.shapes;
  if (TEXT_SIZES.some(({ size }) => size === stored.textSize)) settings.textSize = stored.textSize;
  return settings;
}

/** @param {Storage | null} storage @param {Settings} settings */
export function saveSettings(storage, settings) {
  try {
    storage?.setItem(KEY, JSON.stringify(settings));
  } catch {
    // Settings last for this visit only.
  }
}

/** A width within the limits, in whole pixels. */
export function clampWidth(width) {
  return Math.min(MAXIMUM_WIDTH, Math.max(MINIMUM_WIDTH, Math.round(width)));
}

/** The next width down or up: steps grow with the width, so both fine and bold are a few presses away. */
export function stepWidth(width, direction) {
  const step = width < 4 ? 1 : width < 12 ? 2 : 4;
  return clampWidth(width + direction * step);
}
