// Random sessions made here (every operation kind, malformed and unknown ones too, settles honest,
// dishonest, out of order and malformed) converge under any delivery order, and every delta names every
// stroke whose drawing changed. Seeded: INKWELL_SEED reruns.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Board } from '../../js/model/board.js';
import { add, strokeOf, testAuthor } from './support/authors.mjs';
import { reproducibly, runSeed, seededRandom } from './support/random.mjs';

/** Three authors drawing on one board for `steps` changes; each sees the others' changes at once or later. */
function randomSession(random, steps) {
  const authors = [testAuthor(4), testAuthor(5), testAuthor(6)];
  const model = new Board('main');
  const mine = new Map(authors.map((author) => [author.replica, []]));
  const changes = [];
  const points = () => {
    let [x, y] = [random.int(0, 2000) / 4, random.int(0, 2000) / 4];
    return Array.from({ length: random.int(1, 12) }, () => [(x += random.int(-80, 80) / 4), (y += random.int(-80, 80) / 4)]);
  };
  for (let step = 0; step < steps; step++) {
    const author = authors[step % 3];
    const visible = model.strokes();
    const target = visible.length > 0 ? random.pick(visible) : null;
    const own = visible.filter((stroke) => stroke.id.startsWith(author.replica));
    const roll = random.int(0, 109);
    let operations = [];
    if (roll < 28) {
      const ink = points();
      const pressures = random.bool() ? ink.map(() => random.int(0, 8) / 8) : null;
      const brush = random.pick([undefined, undefined, undefined, undefined, 'pen', 'highlighter']);
      operations.push(add(ink, { colour: random.int(0, 0xffffffff), width: random.int(1, 80) / 4, pressures, brush }));
      if (random.int(0, 9) === 0) operations.push(add(points()));
    } else if (roll < 42 && target) {
      // Mostly to my own strokes, the only appends that count: settles may have made them void.
      const stroke = own.length > 0 && random.int(0, 3) > 0 ? random.pick(own) : target;
      const ink = points();
      const pressures = stroke.pressures && random.bool() ? ink.map(() => 0.5) : null;
      operations.push({ op: 'appendPoints', stroke: stroke.id, points: ink, pressures });
    } else if (roll < 62 && target) {
      const last = target.points.length - 1;
      const intervals = Array.from({ length: random.int(1, 3) }, () => {
        const a = random.int(-4, last * 8) / 8;
        return [a, a + random.int(0, Math.max(1, last * 4)) / 8];
      });
      operations.push({ op: 'erase', stroke: target.id, intervals });
    } else if (roll < 74 && target) {
      operations.push(
        random.pick([
          { op: 'set', stroke: target.id, attribute: 'colour', value: random.int(0, 0xffffffff) },
          { op: 'set', stroke: target.id, attribute: 'width', value: random.int(4, 36) / 4 },
          { op: 'set', stroke: target.id, attribute: 'zOrder', value: random.int(-3, 3) },
          { op: 'set', stroke: target.id, attribute: 'deleted', value: random.bool() },
          { op: 'set', stroke: target.id, attribute: 'transform', value: [1, 0, 0, 1, random.int(-36, 36) / 4, 0] },
          { op: 'set', stroke: target.id, attribute: 'fill', value: random.pick([0, 0x0078ff40, 0x12345600]) },
        ]),
      );
    } else if (roll < 93) {
      // Undo or redo one of my recent changes; now and then someone else's (ignored by everyone).
      const pool = random.int(0, 9) === 0 ? changes.slice(-20).map((c) => c.id) : mine.get(author.replica).slice(-40);
      if (pool.length > 0) {
        const id = random.pick(pool);
        operations.push({ op: model.isActive(id) ? 'undo' : 'redo', change: id });
      }
    } else if (roll < 97) {
      operations.push({ op: 'clear' });
    } else if (roll < 100) {
      const marker = add([[1, 1]], { brush: 'marker' });
      operations.push({ op: 'unknown', kind: 77, bytes: '01' }, add([[NaN, 1]]), marker);
    } else {
      operations.push(...randomSettles(random, model, author));
    }
    if (operations.length === 0) operations = [add(points())];
    const change = author.makeChange('main', operations);
    mine.get(author.replica).push(change.id);
    model.apply(change);
    changes.push(change);
    for (const other of authors) if (other !== author && random.int(0, 3) > 0) other.witness(change.stamp);
  }
  return { changes, model };
}

/**
 * Settles for `author`'s next change: honest (what the board shows), dishonest (any list), reaching
 * back behind earlier ones, two in one change, or malformed (reaching the change itself, listing a seq
 * outside `1…through`).
 */
function randomSettles(random, model, author) {
  const seq = author.seq + 1;
  if (seq < 2 || random.int(0, 5) === 0) {
    const reachingItself = { op: 'settle', through: seq, inactive: [] };
    return [random.pick([reachingItself, { op: 'settle', through: Math.max(seq - 1, 1), inactive: [0] }])];
  }
  const through = () => random.int(Math.max(1, seq - 40), seq - 1);
  // What the board shows; behind the author's furthest settle, a settle that lists nothing.
  const honest = (reach) => model.settlement(author.replica, reach) ?? { op: 'settle', through: reach, inactive: [] };
  switch (random.int(0, 3)) {
    case 0:
    case 1:
      return [honest(through())];
    case 2: {
      const reach = through();
      const inactive = Array.from({ length: random.int(0, 4) }, () => random.int(Math.max(1, reach - 30), reach));
      return [{ op: 'settle', through: reach, inactive }];
    }
    default:
      return [honest(through()), honest(through())];
  }
}

/**
 * What the drawing need not show: whether each change is active, and the points of every stroke added,
 * visible or not (a late clear hides most of a session's strokes, and with them what settles did).
 */
function hidden(board, changes) {
  return changes.map((change) => ({
    active: board.isActive(change.id),
    points: change.operations.map((op, index) => op.op === 'addStroke' && board.points(strokeOf(change, index))),
  }));
}

/** Each visible stroke, serialised, by id: arrays are live, so compare strings. */
function snapshot(board) {
  return new Map(board.strokes().map((stroke) => [stroke.id, JSON.stringify(stroke)]));
}

test('random sessions converge in any delivery order, with duplicates', () => {
  const seed = runSeed();
  reproducibly(seed, () => {
    const random = seededRandom(seed);
    for (let session = 0; session < 4; session++) {
      const { changes, model } = randomSession(random, 240);
      model.checkInvariants();
      const expected = model.hash();
      for (let round = 0; round < 6; round++) {
        const delivered = random.shuffled([...changes, ...Array.from({ length: 30 }, () => random.pick(changes))]);
        const board = new Board('main');
        for (const change of delivered) board.apply(change);
        board.checkInvariants();
        assert.equal(board.hash(), expected, `session ${session}, round ${round}`);
        assert.deepEqual(board.strokes(), model.strokes(), `session ${session}, round ${round}`);
        assert.deepEqual(hidden(board, changes), hidden(model, changes), `session ${session}, round ${round}`);
      }
    }
  });
});

test('every delta names every stroke whose drawing changed', () => {
  const seed = runSeed();
  reproducibly(seed, () => {
    const random = seededRandom(seed);
    const { changes } = randomSession(random, 160);
    const board = new Board('main');
    let before = snapshot(board);
    for (const change of random.shuffled(changes)) {
      const delta = board.apply(change);
      const after = snapshot(board);
      if (!delta.everything) {
        for (const id of new Set([...before.keys(), ...after.keys()])) {
          if (before.get(id) !== after.get(id)) assert.ok(delta.strokes.has(id), `stroke ${id} changed unnamed`);
        }
        const order = (map) => [...map.keys()].filter((id) => !delta.strokes.has(id));
        if (!delta.reordered) assert.deepEqual(order(after), order(before), 'untouched strokes moved');
      }
      before = after;
    }
  });
});
