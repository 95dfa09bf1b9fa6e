/**
 * The text tool: a click on a text box edits it with the caret where it was clicked; a click on empty board
 * opens the editor (text-editor.js) for a new box there, in the pen's colour and the chosen text size, or,
 * while one is being edited, just finishes that one. Typing happens in the editor, not here.
 */

import { boxAt, caretAt } from '../text-hits.js';
import { LINE_HEIGHT } from '../text-layout.js';

/** How near a click must come to a box to edit it, in screen pixels. */
const HIT_PIXELS = 6;

/** The text tool. */
export class TextTool {
  name = 'text';
  cursor = 'text';
  /** Nothing is dragged: a press does its work at once. */
  active = false;

  /**
   * @param {import('../main.js').ToolContext} context
   * @param {import('../text-editor.js').TextEditor} editor
   */
  constructor(context, editor) {
    this.context = context;
    this.editor = editor;
  }

  /** @param {import('../input.js').ToolPoint} point */
  down(point) {
    const { scene, settings, viewport } = this.context;
    const at = /** @type {[number, number]} */ ([point.x, point.y]);
    const hit = boxAt(scene, at, HIT_PIXELS / viewport.scale);
    const box = hit === null ? undefined : scene.stroke(hit);
    if (box !== undefined) return this.editor.edit(box.id, caretAt(box, at, scene.measure));
    if (this.editor.active) return this.editor.finish();
    // The first line's middle at the press, where the caret shows.
    const size = settings.textSize;
    this.editor.start({ at: [point.x, point.y - (size * LINE_HEIGHT) / 2], size, colour: settings.colour });
  }

  move() {}

  up() {}

  /** A pinch or a lost pointer: the editor stays open (main.js finishes it when editing should end). */
  cancel() {}

  layer() {}
}
