/**
 * The lasso: a free-form loop picks the strokes it goes around (most of their visible ink inside it,
 * as Swift's `StrokeIndex.select(lasso:)` decides); Shift adds them to the selection. The selection it
 * makes is moved, scaled and rotated as the select tool's is.
 */

import { SelectTool } from './select.js';

/** The lasso tool. */
export class LassoTool extends SelectTool {
  name = 'lasso';

  /** @param {import('../main.js').ToolContext} context */
  constructor(context) {
    super(context, { lasso: true });
  }
}
