/**
 * Where a new image lands: at its natural size (one image pixel a board pixel), shrunk to fit a share of
 * the view when it is larger, so a photo from a camera does not bury the board; centred where it was
 * dropped or pasted. Pure, so the arithmetic is tested without a page.
 */

import { MAXIMUM_IMAGE_SIDE } from '../model/board-image.js';

/** The share of the view's width and height a new image may cover at most. */
export const VIEW_SHARE = 0.6;

/**
 * The size an image of `natural` size takes on the board: its own, or scaled down (never up, never
 * distorted) to fit `share` of the view, and within the board's largest side.
 * @param {{width: number, height: number}} natural in image pixels
 * @param {import('../geometry/rect.js').Rect} view the board rectangle on screen
 * @param {number} [share]
 * @returns {{width: number, height: number}}
 */
export function fitImage(natural, view, share = VIEW_SHARE) {
  const width = Math.max(1, natural.width);
  const height = Math.max(1, natural.height);
  const room = [(view.maxX - view.minX) * share, (view.maxY - view.minY) * share];
  let scale = Math.min(1, MAXIMUM_IMAGE_SIDE / width, MAXIMUM_IMAGE_SIDE / height);
  if (room[0] > 0 && room[1] > 0) scale = Math.min(scale, room[0] / width, room[1] / height);
  return { width: width * scale, height: height * scale };
}

/**
 * The box a new image fills: fitted to the view, its middle at `centre` (the view's middle if null).
 * @param {{width: number, height: number}} natural
 * @param {[number, number] | null} centre a board point
 * @param {import('../geometry/rect.js').Rect} view
 * @returns {{at: [number, number], width: number, height: number}} `at` its top-left corner
 */
export function placeImage(natural, centre, view) {
  const { width, height } = fitImage(natural, view);
  const [x, y] = centre ?? [(view.minX + view.maxX) / 2, (view.minY + view.maxY) / 2];
  return { at: [x - width / 2, y - height / 2], width, height };
}
