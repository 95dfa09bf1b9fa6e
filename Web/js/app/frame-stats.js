/**
 * Frame timings from requestAnimationFrame: the gaps between consecutive frames of an animation (a pan,
 * a zoom, a stroke being drawn), not the idle time between them, and the time each frame's own work took.
 */

/** A ring of recent frame intervals and work times. */
export class FrameStats {
  /** @param {number} [capacity] the most recent frames kept */
  constructor(capacity = 1200) {
    this.capacity = capacity;
    this.reset();
  }

  /** Forgets every frame. */
  reset() {
    /** @type {number[]} milliseconds between consecutive animation frames */
    this.intervals = [];
    /** @type {number[]} milliseconds of work inside each frame */
    this.work = [];
    this.last = null;
  }

  /**
   * Notes a frame.
   * @param {number} timestamp the rAF timestamp
   * @param {boolean} continued whether the previous frame asked for this one (else the gap was idle time)
   * @param {number} workMilliseconds how long this frame's work took
   */
  frame(timestamp, continued, workMilliseconds) {
    if (continued && this.last !== null) push(this.intervals, timestamp - this.last, this.capacity);
    push(this.work, workMilliseconds, this.capacity);
    this.last = timestamp;
  }

  /** @returns {{frames: number, medianFps: number, p5Fps: number, medianWorkMs: number, p95WorkMs: number}} */
  summary() {
    return summarise(this.intervals, this.work);
  }
}

/**
 * Frame rate figures from frame intervals: the median, and the 5th percentile (the rate 95 % of frames
 * beat, from the 95th percentile interval).
 * @param {number[]} intervals milliseconds
 * @param {number[]} [work] milliseconds
 */
export function summarise(intervals, work = []) {
  const sorted = [...intervals].sort((a, b) => a - b);
  const works = [...work].sort((a, b) => a - b);
  const fps = (ms) => (ms > 0 ? 1000 / ms : 0);
  return {
    frames: sorted.length,
    medianFps: fps(percentile(sorted, 0.5)),
    p5Fps: fps(percentile(sorted, 0.95)),
    medianWorkMs: percentile(works, 0.5),
    p95WorkMs: percentile(works, 0.95),
  };
}

/** The value at fraction `q` of sorted values (nearest rank); 0 for none. */
export function percentile(sorted, q) {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index];
}

function push(list, value, capacity) {
  list.push(value);
  if (list.length > capacity) list.splice(0, list.length - capacity);
}
