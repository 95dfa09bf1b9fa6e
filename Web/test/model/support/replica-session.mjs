// Replicas that draw at random on their own views of a board and hear one another late: the histories the
// seeded tests of what stops mattering (inert.test.mjs, and the page's snapshots) run on.

import { Board } from '../../../js/model/board.js';
import { add, strokeOf, testAuthor } from './authors.mjs';

/** @typedef {ReturnType<typeof import('./random.mjs').seededRandom>} Random */

const settle = (through, inactive = []) => ({ op: 'settle', through, inactive });

/**
 * Replicas that each draw on their own view of the board and hear one another's changes late, as
 * Swift's ReplicaSession (Tests/InkwellBoardTests/Support/ReplicaSession.swift).
 */
export class ReplicaSession {
  /** Every change made, in the order made. @type {object[]} */
  changes = [];

  /**
   * @param {Random} random
   * @param {number} replicas
   * @param {{text?: boolean}} [options] `text`: a quarter of the changes are about text boxes, one in five of
   *   those a new image (off, a seed makes the same session as it always has)
   */
  constructor(random, replicas, { text = false } = {}) {
    this.random = random;
    this.text = text;
    this.replicas = Array.from({ length: replicas }, (_, i) => ({
      author: testAuthor(21 + i),
      view: new Board('main'),
      /** Changes it has not heard yet. @type {object[]} */
      inbox: [],
      /** Every change it has applied, in the order applied. @type {object[]} */
      seen: [],
      /** Every stroke it has heard added. @type {string[]} */
      strokes: [],
      /** Every text box it has heard added. @type {string[]} */
      boxes: [],
      /** Every image it has heard added. @type {string[]} */
      images: [],
    }));
  }

  /** @param {number} steps */
  run(steps) {
    const { random } = this;
    for (let step = 0; step < steps; step++) {
      const replica = random.pick(this.replicas);
      // Hear some of what the others made; a replica now and then stays away for a while.
      if (random.int(0, 3) !== 0) {
        const heard = replica.inbox.splice(0, random.int(0, replica.inbox.length));
        for (const change of heard) {
          replica.author.witness(change.stamp);
          this.#apply(replica, change);
        }
      }
      const change = replica.author.makeChange('main', this.#randomOperations(replica));
      this.#apply(replica, change);
      this.changes.push(change);
      for (const other of this.replicas) if (other !== replica) other.inbox.push(change);
    }
  }

  /**
   * A random prefix of every timeline, each at least as far as `floor`'s.
   * @param {Map<string, number>} [floor]
   * @returns {Map<string, number>}
   */
  randomCut(floor = new Map()) {
    return new Map(
      this.replicas.map(({ author }) => [author.replica, this.random.int(floor.get(author.replica) ?? 0, author.seq)]),
    );
  }

  #apply(replica, change) {
    replica.view.apply(change);
    replica.seen.push(change);
    change.operations.forEach((op, index) => {
      if (op.op === 'addStroke') replica.strokes.push(strokeOf(change, index));
      if (op.op === 'addText') replica.boxes.push(strokeOf(change, index));
      if (op.op === 'addImage') replica.images.push(strokeOf(change, index));
    });
  }

  /** As Swift's `BoardModel.randomOperation`: every kind, now and then on a stroke that is gone. */
  #randomOperations(replica) {
    const { random } = this;
    if (this.text && random.int(0, 3) === 0) return this.#randomTextOperations(replica);
    const { author, view, seen, strokes } = replica;
    const me = author.replica;
    const visible = view.strokes();
    const target = visible.length > 0 ? random.pick(visible) : null;
    const points = () => {
      let [x, y] = [random.int(0, 2000) / 4, random.int(0, 2000) / 4];
      const step = () => random.int(-80, 80) / 4;
      return Array.from({ length: random.int(1, 12) }, () => [(x += step()), (y += step())]);
    };
    const roll = random.int(0, 99);
    const operations = [];
    if (roll < 30) {
      // One stroke in six by a highlighter, beneath everything else.
      const ink = points();
      const pressures = random.bool() ? ink.map(() => random.int(0, 8) / 8) : null;
      const brush = random.int(0, 5) === 0 ? 'highlighter' : undefined;
      operations.push(add(ink, { colour: random.int(0, 0xffffffff), width: random.int(2, 80) / 4, pressures, brush }));
    } else if (roll < 45) {
      // Appends to another's stroke are ignored, which the rule must see too.
      if (target !== null) {
        const ink = points();
        const pressures = target.pressures !== null && target.id.startsWith(me) ? ink.map(() => 0.5) : null;
        operations.push({ op: 'appendPoints', stroke: target.id, points: ink, pressures });
      }
    } else if (roll < 65) {
      if (target !== null) {
        const last = target.points.length - 1;
        const intervals = Array.from({ length: random.int(1, 3) }, () => {
          const a = random.int(-4, last * 8) / 8;
          return [a, a + random.int(1, Math.max(1, last * 4)) / 8];
        });
        operations.push({ op: 'erase', stroke: target.id, intervals });
      }
    } else if (roll < 77) {
      if (target !== null) {
        const { id } = target;
        operations.push(
          random.pick([
            { op: 'set', stroke: id, attribute: 'colour', value: random.int(0, 0xffffffff) },
            { op: 'set', stroke: id, attribute: 'width', value: random.int(4, 36) / 4 },
            { op: 'set', stroke: id, attribute: 'zOrder', value: random.int(-3, 3) },
            { op: 'set', stroke: id, attribute: 'deleted', value: random.bool() },
            { op: 'set', stroke: id, attribute: 'transform', value: [1, 0, 0, 1, random.int(-36, 36) / 4, 0] },
            // Alpha 0 (no fill) one time in sixteen.
            { op: 'set', stroke: id, attribute: 'fill', value: (random.int(0, 0xffffffff) & 0xffffff0f) >>> 0 },
          ]),
        );
      }
    } else if (roll < 91) {
      // Mostly changes not settled yet, as an honest undo stack holds; now and then one that is.
      const settled = view.settledThrough(me);
      const mine = seen.slice(-40).filter((c) => c.id.replica === me && (settled < c.id.seq || random.int(0, 7) === 0));
      if (mine.length > 0) {
        const { id } = random.pick(mine);
        operations.push({ op: view.isActive(id) ? 'undo' : 'redo', change: id });
      }
    } else if (roll < 94) {
      // On any stroke ever added: hidden, erased away, dead or another replica's.
      if (strokes.length > 0) {
        const stroke = random.pick(strokes);
        operations.push(
          random.pick([
            { op: 'erase', stroke, intervals: [[0, 1]] },
            { op: 'set', stroke, attribute: 'deleted', value: random.bool() },
            { op: 'appendPoints', stroke, points: points(), pressures: null },
            { op: 'set', stroke, attribute: 'zOrder', value: random.int(-3, 3) },
          ]),
        );
      }
    } else if (roll < 97) {
      operations.push({ op: 'clear' });
    } else {
      operations.push(this.#randomSettle(author, view, seen));
    }
    if (operations.length === 0) operations.push(add(points()));
    return operations;
  }

  /**
   * A change about text boxes: a new box, typing or deleting at random carets of a box it sees, and now and
   * then something aimed at a box that is gone, or at the wrong kind of element, which the board ignores.
   * One in five places an image instead, as Swift's `BoardModel.randomText`; once placed, an image is a
   * target like any stroke it sees.
   */
  #randomTextOperations({ view, strokes, boxes, images }) {
    const { random } = this;
    if (random.int(0, 4) === 0) return [this.#randomImage()];
    const shown = view.strokes().filter((stroke) => stroke.text !== undefined);
    const box = shown.length > 0 ? random.pick(shown) : null;
    const roll = random.int(0, 99);
    const words = ['a', 'ink', 'well ', '🙂', 'é', '\n', 'board'];
    if (box !== null && roll < 50) {
      const length = view.visibleCharacters(box.id).length;
      const caret = random.int(0, length);
      return [view.insertTextOperation(box.id, caret, random.pick(words))];
    }
    if (box !== null && roll < 70) {
      const length = view.visibleCharacters(box.id).length;
      const from = random.int(0, length);
      const operations = view.deleteTextOperations(box.id, from, random.int(from, Math.min(length, from + 4)));
      if (operations.length > 0) return operations;
    }
    if (roll < 80 && (boxes.length > 0 || strokes.length > 0 || images.length > 0)) {
      // On any box ever heard of (hidden, dead or another's), or on a stroke or an image.
      const others = [...boxes, ...strokes, ...images];
      const target = boxes.length > 0 && random.bool() ? random.pick(boxes) : random.pick(others);
      return [
        random.pick([
          { op: 'insertText', box: target, after: null, text: random.pick(words) },
          { op: 'deleteText', box: target, ranges: [{ run: target, from: 0, to: 1 }] },
          { op: 'erase', stroke: target, intervals: [[0, 1]] },
          { op: 'appendPoints', stroke: target, points: [[1, 2]], pressures: null },
          { op: 'set', stroke: target, attribute: 'deleted', value: true },
          { op: 'set', stroke: target, attribute: 'width', value: random.int(4, 80) / 2 },
        ]),
      ];
    }
    const at = [random.int(0, 2000) / 4, random.int(0, 2000) / 4];
    return [{ op: 'addText', colour: random.int(0, 0xffffffff), size: random.int(8, 96) / 2, at }];
  }

  /** An `addImage` of a random blob, type and box, at a random corner, as Swift's `BoardModel` makes one. */
  #randomImage() {
    const { random } = this;
    const [width, height, x, y] = Array.from({ length: 4 }, () => random.int(8, 400));
    const blob = Array.from({ length: 32 }, () => random.int(0, 255).toString(16).padStart(2, '0')).join('');
    const type = random.pick(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
    return { op: 'addImage', blob, bytes: random.int(1, 1_000_000), type, at: [x, y], width, height };
  }

  /**
   * A settle of the author's changes up to the last few it saw of its own: honest (its undone ones, as
   * the board says), or one in eight lying about which are undone or reaching out of bounds.
   */
  #randomSettle(author, view, seen) {
    const { random } = this;
    const me = author.replica;
    const seq = author.seq + 1;
    if (random.int(0, 7) === 0) {
      const through = random.int(0, seq + 1);
      return settle(through, Array.from({ length: random.int(0, 4) }, () => random.int(0, Math.max(through, 1) + 1)));
    }
    const recent = Math.min(seq, ...seen.slice(-40).filter((c) => c.id.replica === me).map((c) => c.id.seq));
    const through = Math.min(Math.max(view.settledThrough(me) + 1, recent > 1 ? recent - 1 : 1), seq - 1);
    return (through >= 1 ? view.settlement(me, through) : null) ?? settle(0);
  }
}
