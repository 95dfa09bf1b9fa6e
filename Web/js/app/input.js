/**
 * Pointer Events on the drawing surface: pen, mouse and touch drive the current tool (with pressure and
 * every coalesced sample), and move the view: wheel to pan, Ctrl/⌘+wheel or a trackpad pinch to zoom, two
 * fingers to pan and zoom, the middle button or a held space bar to drag the board.
 */

import { pinchStep, wheelZoomFactor } from './viewport.js';

/**
 * @typedef {{x: number, y: number, sx: number, sy: number, pressure: number, pointerType: string,
 *   shift: boolean}} ToolPoint `shift`: Shift was held (the select tool adds to the selection with it)
 * @typedef {{
 *   down(point: ToolPoint): void, move(points: ToolPoint[]): void, up(point: ToolPoint | null): void,
 *   cancel(): void, hoverAt?(point: ToolPoint | null): void, active?: boolean, cursor?: string
 * }} Tool
 */

/** Routes the surface's pointer, wheel and space-bar events to the tool or to the view. */
export class PointerInput {
  /** @type {Map<number, {role: 'tool' | 'pan' | 'pinch', type: string, sx: number, sy: number}>} */
  #pointers = new Map();
  #spaceHeld = false;

  /**
   * @param {{
   *   surface: HTMLElement, viewport: import('./viewport.js').Viewport, requestFrame: () => void,
   *   tool: () => Tool, onCursor: (point: [number, number] | null) => void, window?: Window
   * }} options
   */
  constructor({ surface, viewport, requestFrame, tool, onCursor, window: win = globalThis.window }) {
    this.surface = surface;
    this.viewport = viewport;
    this.requestFrame = requestFrame;
    this.tool = tool;
    this.onCursor = onCursor;
    this.window = win;
    surface.addEventListener('pointerdown', (e) => this.#down(e));
    surface.addEventListener('pointermove', (e) => this.#move(e));
    surface.addEventListener('pointerup', (e) => this.#up(e, false));
    surface.addEventListener('pointercancel', (e) => this.#up(e, true));
    surface.addEventListener('pointerleave', (e) => this.#leave(e));
    surface.addEventListener('wheel', (e) => this.#wheel(e), { passive: false });
    surface.addEventListener('contextmenu', (e) => e.preventDefault());
    // Safari's own pinch events would zoom the page; the wheel handler does the board's zoom instead.
    surface.addEventListener('gesturestart', (e) => e.preventDefault());
    win.addEventListener('keydown', (e) => this.#key(e, true));
    win.addEventListener('keyup', (e) => this.#key(e, false));
    win.addEventListener('blur', () => this.#setSpace(false));
  }

  /** Whether a drag is moving the view (so the tool's cursor is a hand). */
  get panning() {
    return this.#spaceHeld || [...this.#pointers.values()].some((p) => p.role !== 'tool');
  }

  /** Sets the surface's cursor for the current tool and state. */
  updateCursor() {
    const dragging = [...this.#pointers.values()].some((p) => p.role === 'pan');
    this.surface.style.cursor = this.#spaceHeld || dragging ? (dragging ? 'grabbing' : 'grab') : (this.tool().cursor ?? 'default');
  }

  /** @param {PointerEvent} e */
  #down(e) {
    if (e.pointerType === 'mouse' && e.button !== 0 && e.button !== 1) return;
    e.preventDefault();
    this.surface.focus?.({ preventScroll: true });
    try {
      this.surface.setPointerCapture(e.pointerId);
    } catch {
      // A synthetic or already-ended pointer cannot be captured; its events still arrive.
    }
    const [sx, sy] = this.#screen(e);
    const touches = [...this.#pointers.entries()].filter(([, p]) => p.type === 'touch');
    if (e.pointerType === 'touch' && touches.length >= 1) {
      // A second finger: this is a pinch, not a stroke. Drop what the first finger began.
      for (const [, pointer] of touches) {
        if (pointer.role === 'tool') this.tool().cancel();
        pointer.role = 'pinch';
      }
      this.#pointers.set(e.pointerId, { role: 'pinch', type: 'touch', sx, sy });
      return;
    }
    if (e.button === 1 || this.#spaceHeld) {
      this.#pointers.set(e.pointerId, { role: 'pan', type: e.pointerType, sx, sy });
      this.updateCursor();
      return;
    }
    if ([...this.#pointers.values()].some((p) => p.role === 'tool')) return;
    this.#pointers.set(e.pointerId, { role: 'tool', type: e.pointerType, sx, sy });
    this.tool().down(this.#point(e, sx, sy));
  }

  /** @param {PointerEvent} e */
  #move(e) {
    const rect = this.surface.getBoundingClientRect();
    const [sx, sy] = this.#screen(e, rect);
    const pointer = this.#pointers.get(e.pointerId);
    if (pointer === undefined) {
      if (e.pointerType !== 'touch') {
        const point = this.#point(e, sx, sy);
        this.tool().hoverAt?.(point);
        this.onCursor([point.x, point.y]);
      }
      return;
    }
    if (pointer.role === 'tool') {
      const events = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
      const samples = (events.length > 0 ? events : [e]).map((event) => {
        const [x, y] = this.#screen(event, rect);
        return this.#point(event, x, y);
      });
      this.tool().move(samples);
      const last = samples[samples.length - 1];
      this.onCursor([last.x, last.y]);
    } else if (pointer.role === 'pan') {
      this.viewport.panBy(sx - pointer.sx, sy - pointer.sy);
      this.requestFrame();
    } else {
      const pinch = [...this.#pointers.entries()].filter(([, p]) => p.role === 'pinch');
      if (pinch.length === 2) {
        const before = pinch.map(([, p]) => [p.sx, p.sy]);
        const after = pinch.map(([id, p]) => (id === e.pointerId ? [sx, sy] : [p.sx, p.sy]));
        const step = pinchStep(before, after);
        this.viewport.panBy(step.dx, step.dy);
        this.viewport.zoomAt(step.factor, step.centre[0], step.centre[1]);
        this.requestFrame();
      }
    }
    pointer.sx = sx;
    pointer.sy = sy;
  }

  /** @param {PointerEvent} e */
  #up(e, cancelled) {
    const pointer = this.#pointers.get(e.pointerId);
    if (pointer === undefined) return;
    this.#pointers.delete(e.pointerId);
    if (pointer.role === 'tool') {
      if (cancelled) this.tool().cancel();
      else {
        const [sx, sy] = this.#screen(e);
        this.tool().up(this.#point(e, sx, sy));
      }
    }
    this.updateCursor();
  }

  /** @param {PointerEvent} e */
  #leave(e) {
    if (this.#pointers.has(e.pointerId)) return;
    this.tool().hoverAt?.(null);
    this.onCursor(null);
  }

  /** @param {WheelEvent} e */
  #wheel(e) {
    e.preventDefault();
    const [sx, sy] = this.#screen(e);
    if (e.ctrlKey || e.metaKey) {
      // Trackpad pinches arrive as wheel events with ctrlKey set.
      this.viewport.zoomAt(wheelZoomFactor(e.deltaY, e.deltaMode), sx, sy);
    } else {
      const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? this.viewport.height : 1;
      const dx = (e.shiftKey && e.deltaX === 0 ? e.deltaY : e.deltaX) * unit;
      const dy = (e.shiftKey && e.deltaX === 0 ? 0 : e.deltaY) * unit;
      this.viewport.panBy(-dx, -dy);
    }
    this.requestFrame();
  }

  /** @param {KeyboardEvent} e */
  #key(e, down) {
    if (e.code !== 'Space' && e.key !== ' ') return;
    const target = /** @type {HTMLElement} */ (e.target);
    if (target !== null && target !== this.surface && /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName ?? '')) return;
    e.preventDefault();
    this.#setSpace(down);
  }

  #setSpace(held) {
    if (held === this.#spaceHeld) return;
    this.#spaceHeld = held;
    this.updateCursor();
  }

  #screen(e, rect = this.surface.getBoundingClientRect()) {
    return [e.clientX - rect.left, e.clientY - rect.top];
  }

  /** @returns {ToolPoint} */
  #point(e, sx, sy) {
    const [x, y] = this.viewport.toBoard(sx, sy);
    // Some pens report 0 at first contact; a floor keeps the start of the stroke visible.
    const pressure = e.pointerType === 'pen' ? Math.max(0.05, Math.min(1, e.pressure || 0)) : 0.5;
    return { x, y, sx, sy, pressure, pointerType: e.pointerType, shift: Boolean(e.shiftKey) };
  }
}
