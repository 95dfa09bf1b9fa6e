/**
 * Light and dark themes: the system's preference until the person picks one, then their pick, kept in
 * localStorage. The theme is `data-theme` on `<html>`, which app.css reads.
 */

const KEY = 'inkwell.theme';

/**
 * @typedef {'light' | 'dark'} Theme
 */

/**
 * The theme to show: the stored choice, else the system's.
 * @param {string | null} stored
 * @param {boolean} prefersDark
 * @returns {Theme}
 */
export function resolveTheme(stored, prefersDark) {
  if (stored === 'light' || stored === 'dark') return stored;
  return prefersDark ? 'dark' : 'light';
}

/** @param {Theme} theme @returns {Theme} */
export function otherTheme(theme) {
  return theme === 'dark' ? 'light' : 'dark';
}

/** Reads the stored choice; null when none (or storage refuses). @param {Storage | null} storage */
export function storedTheme(storage) {
  try {
    return storage?.getItem(KEY) ?? null;
  } catch {
    return null;
  }
}

/** Keeps a choice. @param {Storage | null} storage @param {Theme} theme */
export function storeTheme(storage, theme) {
  try {
    storage?.setItem(KEY, theme);
  } catch {
    // The choice lasts for this visit only.
  }
}

/**
 * Shows a theme: sets `data-theme` and the `color-scheme` the browser uses for its own controls.
 * @param {Document} document
 * @param {Theme} theme
 */
export function applyTheme(document, theme) {
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
}
