// Shared by the geometry tests: seeded randomness, pen-like random strokes, files beside the package.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `INKWELL_SEED` when set (to replay a failure), else a fresh seed; the caller prints it. */
export function seed() {
  const fromEnvironment = process.env.INKWELL_SEED;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return Number(fromEnvironment) >>> 0;
  return (Math.random() * 2 ** 32) >>> 0;
}

/** A small seeded generator (mulberry32): uniform numbers, integers and 1/64-px coordinates. */
export class Random {
  constructor(seedValue) {
    this.state = seedValue >>> 0;
  }

  /** A number in [0, 1). */
  next() {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  uniform(low, high) {
    return low + (high - low) * this.next();
  }

  /** An integer in low...high, both included. */
  int(low, high) {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  /** A number in low...high rounded to 1/64 px, so it prints and parses back exactly. */
  coordinate(low, high) {
    return Math.round(this.uniform(low, high) * 64) / 64;
  }

  /** A pen-like random walk: steps of varied length, gentle turns, now and then a sharp corner or a repeat. */
  stroke(count, origin = [100, 100], step = [0.5, 12]) {
    const points = [[this.coordinate(origin[0], origin[0] + 40), this.coordinate(origin[1], origin[1] + 40)]];
    let heading = this.uniform(0, 2 * Math.PI);
    while (points.length < count) {
      const roll = this.next();
      const last = points[points.length - 1];
      if (roll < 0.05) {
        points.push([last[0], last[1]]);
        continue;
      }
      heading += roll < 0.15 ? this.uniform(-2.5, 2.5) : this.uniform(-0.4, 0.4);
      const length = this.uniform(step[0], step[1]);
      points.push([
        Math.round((last[0] + Math.cos(heading) * length) * 64) / 64,
        Math.round((last[1] + Math.sin(heading) * length) * 64) / 64,
      ]);
    }
    return points;
  }
}

/** A conformance file of the package (Conformance/NAME), parsed. */
export function conformance(name) {
  return JSON.parse(readFileSync(new URL(`../../../Conformance/${name}`, import.meta.url), 'utf8'));
}

/** The $1 development set beside the package (../shared/data/shapes), never copied into it. */
export const dollarDataPath = fileURLToPath(
  new URL('../../../../shared/data/shapes/dollar1-dev.jsonl', import.meta.url),
);

/** The $1 gestures `{id, label, subject, points}`, or null when the file is not on this machine. */
export function loadDollarGestures() {
  if (!existsSync(dollarDataPath)) return null;
  return readFileSync(dollarDataPath, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const object = JSON.parse(line);
      return {
        id: object.id,
        label: object.label,
        subject: object.subject,
        points: object.strokes[0].map((p) => [p[0], p[1]]),
      };
    });
}

/** Whether two numbers agree within `tolerance`. */
export function near(a, b, tolerance) {
  return Math.abs(a - b) <= tolerance;
}
