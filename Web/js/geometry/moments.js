/**
 * The centre and second moments of a set of points: what the line and ellipse fits are built from. Sums in
 * point order, as Swift's `Moments`, so both sides get bit-identical fits.
 * @param {[number, number][]} points
 * @returns {{center: [number, number], xx: number, yy: number, xy: number}}
 */
export function moments(points) {
  let sumX = 0;
  let sumY = 0;
  for (const p of points) {
    sumX += p[0];
    sumY += p[1];
  }
  const cx = sumX / points.length;
  const cy = sumY / points.length;
  let xx = 0;
  let yy = 0;
  let xy = 0;
  for (const p of points) {
    const dx = p[0] - cx;
    const dy = p[1] - cy;
    xx += dx * dx;
    yy += dy * dy;
    xy += dx * dy;
  }
  return { center: [cx, cy], xx, yy, xy };
}
