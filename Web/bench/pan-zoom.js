/**
 * The pan and zoom benchmark (see pan-zoom.html): a big board drawn by the page's own renderer while the
 * view moves every frame. Figures are from requestAnimationFrame timestamps, as the issue asks.
 *
 * `?images=N&texts=M` add N images and M text boxes among the strokes (bench-elements.js); the images'
 * bytes are made in the page and held by the page's own image loading, as an uploading page's are.
 * `?pressure=1` gives every stroke a pen's pressure, rising and falling along it, so each is painted as an
 * outline of changing width (pressure-outline.js) rather than a line.
 */

import { addImages, addTexts, imageLoading } from './bench-elements.js';
import { boardSide, random, scribble } from './bench-strokes.js';
import { Author } from '../js/model/author.js';
import { Board } from '../js/model/board.js';
import { summarise } from '../js/app/frame-stats.js';
import { Renderer } from '../js/app/renderer.js';
import { Scene } from '../js/app/scene.js';
import { Viewport } from '../js/app/viewport.js';

const params = new URLSearchParams(location.search);
const STROKES = Number(params.get('strokes') ?? 10_000);
const POINTS = Number(params.get('points') ?? 50);
const SEED = Number(params.get('seed') ?? 1);
const IMAGES = Number(params.get('images') ?? 0);
const TEXTS = Number(params.get('texts') ?? 0);
const PRESSURE = params.get('pressure') === '1';
const report = document.getElementById('report');

/** Handwriting-like scribbles spread over a square sized so that strokes are about as dense as notes. */
function buildBoard() {
  const next = random(SEED);
  const side = boardSide(STROKES);
  const board = new Board('main');
  let wall = 1_800_000_000_000;
  const author = new Author({ replica: '0b'.repeat(16), now: () => ++wall });
  for (let s = 0; s < STROKES; s++) board.apply(author.makeChange(board, [scribble(next, side, POINTS, PRESSURE)]));
  addTexts(add, TEXTS, side, next);
  return { board, side, add, next };

  /** Applies one change of the benchmark's author; returns it. */
  function add(operations) {
    const change = author.makeChange(board, operations);
    board.apply(change);
    return change;
  }
}

/** Runs `steps` animation frames, calling `move(i)` before each is drawn; returns the frame intervals. */
function phase(renderer, steps, move) {
  return new Promise((resolve) => {
    const stamps = [];
    const incompleteBefore = renderer.incompleteFrames;
    const holesBefore = renderer.holeFrames;
    const workBefore = renderer.stats.work.length;
    let i = 0;
    const frame = (timestamp) => {
      stamps.push(timestamp);
      if (i === steps) {
        const intervals = stamps.slice(1).map((t, k) => t - stamps[k]);
        const work = renderer.stats.work.slice(workBefore);
        resolve({ ...summarise(intervals, work), incompleteFrames: renderer.incompleteFrames - incompleteBefore, holeFrames: renderer.holeFrames - holesBefore, intervals, work });
        return;
      }
      requestAnimationFrame(frame);
      move(i++);
      renderer.requestFrame();
    };
    requestAnimationFrame(frame);
  });
}

/** Waits until every tile on screen is painted. */
async function settle(renderer) {
  const start = performance.now();
  while (!renderer.settled) {
    renderer.requestFrame();
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  return performance.now() - start;
}

async function run() {
  const t0 = performance.now();
  const { board, side, add, next } = buildBoard();
  const images = await addImages(add, IMAGES, side, next);
  const buildMs = performance.now() - t0;
  const t1 = performance.now();
  const scene = new Scene(board);
  const sceneMs = performance.now() - t1;
  const surface = document.getElementById('surface');
  const viewport = new Viewport();
  // The page's image loading, told of each image's bytes and pixels as an uploading page is.
  const loading = imageLoading(scene, viewport, (rects) => renderer.invalidate(rects));
  const renderer = new Renderer({
    scene,
    viewport,
    base: surface.querySelector('canvas.base'),
    overlay: surface.querySelector('canvas.overlay'),
    images: (stroke) => loading.pixels(stroke),
  });
  for (const { image, bytes, bitmap } of images) loading.hold(image, bytes, bitmap);
  renderer.onSceneChange(() => loading.refresh());
  renderer.onViewChange(() => loading.refresh());
  loading.refresh();
  renderer.resize(surface.clientWidth, surface.clientHeight);
  // For looking at the board by hand after a run (move the viewport, then bench.renderer.requestFrame()).
  window.bench = { board, scene, viewport, renderer, loading };
  viewport.centreOn(side / 2, side / 2);
  const firstPaintMs = await settle(renderer);

  const phases = {};
  const centre = () => [viewport.width / 2, viewport.height / 2];
  // 1. Pan at 100 % in a wide loop: new tiles come into view all the time.
  phases.pan100 = await phase(renderer, 360, (i) => {
    const angle = (i / 360) * 2 * Math.PI;
    viewport.panBy(14 * Math.cos(angle), 14 * Math.sin(angle));
  });
  // 2. Zoom out until the whole board is in view, then back in to 200 %: every tile level is crossed.
  const fitScale = Math.min(viewport.width, viewport.height) / side;
  viewport.centreOn(side / 2, side / 2);
  const outSteps = 180;
  const outFactor = Math.pow(fitScale / viewport.scale, 1 / outSteps);
  phases.zoomOut = await phase(renderer, outSteps, () => viewport.zoomAt(outFactor, ...centre()));
  const inSteps = 180;
  const inFactor = Math.pow(2 / viewport.scale, 1 / inSteps);
  phases.zoomIn = await phase(renderer, inSteps, () => viewport.zoomAt(inFactor, ...centre()));
  // 3. The whole board in view, panned: every point is on screen.
  viewport.setScale(fitScale);
  viewport.centreOn(side / 2, side / 2);
  await settle(renderer);
  // How long the whole board takes to paint from nothing (every tile dropped first).
  renderer.tiles.clear();
  const wholePaintMs = await settle(renderer);
  phases.panWhole = await phase(renderer, 240, (i) => {
    const angle = (i / 240) * 2 * Math.PI;
    viewport.panBy(6 * Math.cos(angle), 6 * Math.sin(angle));
  });
  // 4. Pinch-like: zoom in and out around a point while panning.
  viewport.setScale(0.6);
  phases.pinch = await phase(renderer, 240, (i) => {
    viewport.zoomAt(i % 120 < 60 ? 1.015 : 1 / 1.015, 300 + i, 400);
    viewport.panBy(3, -2);
  });

  // The overall figures pool every frame of every phase.
  const all = Object.values(phases);
  const overall = summarise(all.flatMap((p) => p.intervals), all.flatMap((p) => p.work));
  overall.incompleteFrames = all.reduce((sum, p) => sum + p.incompleteFrames, 0);
  overall.holeFrames = all.reduce((sum, p) => sum + p.holeFrames, 0);
  for (const p of all) {
    delete p.intervals;
    delete p.work;
  }
  const result = {
    strokes: STROKES,
    images: IMAGES,
    texts: TEXTS,
    pressure: PRESSURE,
    pointsPerStroke: POINTS,
    points: STROKES * POINTS,
    boardSide: Math.round(side),
    viewport: [viewport.width, viewport.height],
    devicePixelRatio: renderer.devicePixelRatio,
    buildMs: Math.round(buildMs),
    sceneMs: Math.round(sceneMs),
    firstPaintMs: Math.round(firstPaintMs),
    wholePaintMs: Math.round(wholePaintMs),
    overall,
    phases,
    userAgent: navigator.userAgent,
  };
  window.benchResult = result;
  report.textContent = JSON.stringify(result, (key, value) => (typeof value === 'number' ? Math.round(value * 10) / 10 : value), 1);
}

run().catch((error) => {
  window.benchResult = { error: String(error?.stack ?? error) };
  report.textContent = String(error);
});
