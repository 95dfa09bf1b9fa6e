/**
 * The loading bars of images still arriving, drawn on the overlay over their placeholders: the tiles
 * show the placeholder once, and only this layer is redrawn as the bytes come in.
 */

import { paintImageProgress } from './image-painter.js';

/**
 * The overlay layer that draws them, for the images in view.
 * @param {{scene: import('./scene.js').Scene, images: import('./image-loading.js').ImageLoading}} sources
 * @returns {import('./renderer.js').OverlayLayer}
 */
export function loadingBars({ scene, images }) {
  return (ctx, renderer) => {
    const view = renderer.viewport.visibleRect();
    const accent = renderer.theme === 'dark' ? '#4dabf7' : '#1971c2';
    for (const stroke of scene.images()) {
      const blob = stroke.image?.blob;
      if (blob === undefined || stroke.corners === undefined || stroke.shown.length === 0 || images.decoded(blob)) continue;
      const b = stroke.bounds;
      if (b.maxX < view.minX || b.minX > view.maxX || b.maxY < view.minY || b.minY > view.maxY) continue;
      const fraction = images.fraction(blob);
      if (fraction !== null) paintImageProgress(ctx, stroke.corners, fraction, { scale: renderer.viewport.scale, accent });
    }
  };
}
