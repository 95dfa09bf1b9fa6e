// Test doubles for the page's logic: a board with its own author (the session's commit, without sync),
// a renderer that only counts what it was asked, and a recording 2D context.

import { Board } from '../../js/model/board.js';
import { Author } from '../../js/model/author.js';
import { splitOperations } from '../../js/model/change-parts.js';
import { WireLimits } from '../../js/wire/limits.js';
import { Scene } from '../../js/app/scene.js';
import { Viewport } from '../../js/app/viewport.js';
import { defaultSettings } from '../../js/app/settings.js';
import { Selection } from '../../js/app/selection.js';

/** An author with a fixed replica and a clock that ticks one millisecond per reading. */
export function testAuthor(number = 1) {
  const byte = number.toString(16).padStart(2, '0');
  let wall = 1_800_000_000_000;
  return new Author({ replica: byte + '0'.repeat(28) + byte, now: () => ++wall });
}

/** A horizontal line of `count` points from (x, y), `step` apart. */
export function line(count, { x = 0, y = 0, step = 10 } = {}) {
  return Array.from({ length: count }, (_, i) => [x + i * step, y]);
}

/** An addStroke operation. */
export function add(points, { colour = 0x000000ff, width = 2, pressures = null } = {}) {
  return { op: 'addStroke', colour, width, points, pressures };
}

/**
 * What the session does for the page, in memory: commit applies a change of this author to the board and
 * reports its delta, as the session's `change` event does.
 */
export class FakeSession extends EventTarget {
  constructor(board = new Board('main'), author = testAuthor(1)) {
    super();
    this.board = board;
    this.author = author;
    this.committed = [];
    this.peers = new Map();
    this.presence = [];
  }

  /** Operations in one change at most: fewer than the wire's make tests cut edits into several. */
  mostPerChange = WireLimits.maximumOperationsPerChange;

  commit(operations) {
    return this.commitAll(operations)[0];
  }

  /** As the session's `commitAll`: cut into several changes when too many for one, one undo step. */
  commitAll(operations, { continues = false } = {}) {
    const parts = splitOperations(operations, this.nextChange, () => true, this.mostPerChange);
    return parts.map((part, i) => this.#record(this.author.makeChange(this.board, part, { continues: continues || i > 0 })));
  }

  /** As the session's `withdraw`. */
  withdraw(change) {
    const undoing = this.author.withdraw(this.board, change);
    return undoing === null ? null : this.#record(undoing);
  }

  /** The id of this author's next change, as the session's `nextChange`. */
  get nextChange() {
    return { replica: this.author.replica, seq: this.author.seq + 1 };
  }

  /** Ends the burst of typing in progress, as the session's `endTyping`. */
  endTyping() {
    this.author.history(this.board).endBurst();
  }

  undo() {
    const change = this.author.undo(this.board);
    return change === null ? null : this.#record(change);
  }

  redo() {
    const change = this.author.redo(this.board);
    return change === null ? null : this.#record(change);
  }

  setPresence(presence) {
    this.presence.push(presence);
  }

  #record(change) {
    const delta = this.board.apply(change);
    this.committed.push(change);
    this.dispatchEvent(Object.assign(new Event('change'), { detail: { changes: [change], delta } }));
    return change;
  }
}

/** A renderer that records requests instead of drawing. */
export class FakeRenderer {
  constructor(scene, viewport) {
    this.scene = scene;
    this.viewport = viewport;
    this.invalidated = [];
    this.overlayChanges = 0;
    this.previewClears = 0;
    this.devicePixelRatio = 1;
    this.theme = 'light';
    this.style = (colour) => `#${colour.toString(16).padStart(8, '0')}`;
  }

  invalidate(rects) {
    this.invalidated.push(...rects);
  }

  overlayChanged() {
    this.overlayChanges++;
  }

  clearPreviewWithNextDelta() {
    this.previewClears++;
  }

  dropPreview() {
    this.invalidate(this.scene.clearPreview());
  }
}

/**
 * A tool context over a fake session, as main.js builds the real one.
 * @returns {import('../../js/app/main.js').ToolContext & {session: FakeSession, ink: object[]}}
 */
export function toolContext({ settings = {} } = {}) {
  const session = new FakeSession();
  const scene = new Scene(session.board);
  const selection = new Selection(session.board);
  session.addEventListener('change', (event) => {
    scene.update(event.detail.delta);
    selection.follow(event.detail.delta);
  });
  const viewport = new Viewport({ width: 800, height: 600 });
  const renderer = new FakeRenderer(scene, viewport);
  const ink = [];
  const context = {
    session,
    scene,
    viewport,
    renderer,
    settings: { ...defaultSettings(), ...settings },
    selection,
    ink,
    commit: (operations, options) => (operations.length === 0 ? null : session.commitAll(operations, options)),
    commitReplacingPreview(operations) {
      if (operations.length === 0) return renderer.dropPreview();
      renderer.clearPreviewWithNextDelta();
      session.commit(operations);
      renderer.invalidate(scene.clearPreview());
    },
    dropPreview: () => renderer.dropPreview(),
    setInk: (value) => ink.push(value),
  };
  return context;
}

/** A tool sample at board (x, y) (at 100 %, with the view's origin at the board's, also its screen point). */
export function at(x, y, { pressure = 0.5, pointerType = 'mouse', shift = false } = {}) {
  return { x, y, sx: x, sy: y, pressure, pointerType, shift };
}

/** A 2D context that records the calls made to it (method name and arguments, and property sets). */
export function recordingContext() {
  const calls = [];
  const target = { calls };
  return new Proxy(target, {
    get(object, key) {
      if (key in object) return object[key];
      return (...args) => {
        calls.push([key, ...args]);
      };
    },
    set(object, key, value) {
      calls.push([`=${String(key)}`, value]);
      return true;
    },
  });
}

/** A canvas whose context records calls. */
export function recordingCanvas(width, height) {
  const ctx = recordingContext();
  return { width, height, getContext: () => ctx };
}
