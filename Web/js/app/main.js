/**
 * The whiteboard page: finds the room, opens the sync session, and wires the board's pieces together.
 *
 * For automated tests and benchmarks the page exposes a small read-only handle once the board is ready:
 *
 *     window.inkwell = {
 *       hash(),          // the board's canonical hash (16 hex digits, equal to Swift's for the same board)
 *       strokeCount(),   // visible strokes
 *       settled(),       // whether every tile on screen is painted and no change is waiting to be drawn
 *       room,            // the room id
 *       session,         // the sync session (see js/sync/session.js)
 *       frameStats,      // FrameStats: intervals between animation frames, work per frame; summary()
 *       viewport,        // the Viewport (read it; moving it needs inkwell.requestFrame() after)
 *       requestFrame(),  // asks for a frame
 *       exportSVG(),     // the SVG export as text
 *       review(),        // changes held for review: {count, authors (names as shown), text, previewing}
 *       shownHash(),     // the hash of the board on screen: the live one, or the preview with held changes
 *       readOnly(),      // whether drawing is off here (a view link, or a link the server refused)
 *       selection(),     // the ids of the selected strokes (select and lasso tools), sorted
 *       history(),       // {open, count}: whether the history panel is open, and the changes it walks
 *       text(id),        // the text a text box shows, or null if `id` is not a box here
 *       editing(),       // the text box being typed in: {box (null until its first character), value,
 *                        //   caret (Unicode scalars)}, or null
 *       images(),        // the live board's images, bottom to top: {id, blob, bytes, type, arrived (its
 *                        //   bytes are here), decoded (its pixels are ready to draw)}
 *       imageProgress(), // what the sync indicator says of images (image-progress.js `ImageSummary`)
 *     }
 *
 * The address says which board and with what access (board-access.js): `/` makes a new encrypted board and
 * shows its edit link; `/r/ROOM?cap=…#key=…` opens one by its link; `/r/ROOM` alone an open room (or a
 * board this device holds a link to). A link to a board the server does not know yet (made offline by
 * someone who has not connected since) shows the board as this device holds it and says it is waiting,
 * until the board arrives. A link replaced in one tab is taken by the board's other tabs (links-channel.js).
 *
 * Strokes are selected with the select tool (V: click, Shift+click, a box) or the lasso (L), and then
 * moved, scaled, rotated, recoloured, restacked, duplicated, deleted, copied, cut and pasted, each edit one
 * change (selection-actions.js). The clipboard carries strokes between boards as JSON of their own type
 * (clipboard.js), with an SVG of them for other applications.
 *
 * Text boxes are typed with the text tool (T: a click places one, or edits the box clicked) or by a
 * double-click on a box with the select tool, in an editor laid over the board (text-editor.js); each
 * input is one change, so others see the typing live. Boxes are selected, moved, restyled, erased whole,
 * copied and exported like strokes.
 *
 * Images are added by a paste, a drop on the board or the Image button (I): uploaded as a blob of the room
 * first, then placed in one change (image-adder.js). The board's images are fetched apart from the changes,
 * those in view first, and kept offline (image-loading.js); until an image's pixels are here a grey box
 * stands in, and the sync indicator says how far they have got, apart from the changes it reports.
 *
 * The page's `?review-after=SECONDS` sets how long away before arriving changes are held for review
 * (default 30 s; 0 holds every catch-up after the first, for tests).
 *
 * `window.inkwellReady` is a promise for the same handle (rejected if the board cannot open). On the way the
 * page marks the performance timeline: `inkwell:store-opened`, `inkwell:room-loaded` (by the session, once
 * the store's changes are read and decoded) and `inkwell:ready` (Benchmarks/web-load.py reads them).
 */

import { PenTool } from './tools/pen.js';
import { HighlighterTool } from './tools/highlighter.js';
import { EraserTool } from './tools/eraser.js';
import { StrokeEraserTool } from './tools/stroke-eraser.js';
import { SelectTool } from './tools/select.js';
import { LassoTool } from './tools/lasso.js';
import { TextTool } from './tools/text.js';
import { TextEditor } from './text-editor.js';
import { boxAt, caretAt } from './text-hits.js';
import { Selection } from './selection.js';
import { SelectionActions } from './selection-actions.js';
import { PointerInput } from './input.js';
import { PeopleView } from './people.js';
import { PresenceView } from './presence.js';
import { Renderer } from './renderer.js';
import { resolveBoard, showLink } from './board-access.js';
import { LinksChannel } from './links-channel.js';
import { ShareDialog } from './share-dialog.js';
import { lanOrigins } from './lan-origins.js';
import { Scene } from './scene.js';
import { loadIdentity, saveIdentity } from './identity.js';
import { loadSettings, saveSettings, stepWidth, clampWidth } from './settings.js';
import { isTyping, shortcutFor } from './shortcuts.js';
import { SyncIndicator } from './sync-indicator.js';
import { applyTheme, otherTheme, resolveTheme, storedTheme, storeTheme } from './theme.js';
import { Toolbar } from './toolbar.js';
import { Viewport } from './viewport.js';
import { boardSVG } from './export-svg.js';
import { download, exportedNotice, exportFilename, pngBlob, svgBlob } from './export.js';
import { keepPageOffline } from './offline.js';
import { ImageLoading } from './image-loading.js';
import { ImageAdder } from './image-adder.js';
import { ImagePicker, acceptDrops } from './image-input.js';
import { filesIn } from './image-files.js';
import { loadingBars } from './image-overlay.js';
import { STROKES_TYPE } from './clipboard.js';
import { KnownPeople, ReviewBanner, reviewSummary } from './review.js';
import { HistoryPanel } from './history-panel.js';
import { HelpSheet } from './help-sheet.js';
import { loadPaused, reviewAfterFrom, savePaused } from './sharing.js';
import { snapshotOptionsFrom } from './snapshot-options.js';

/**
 * What tools get to work with.
 * @typedef {{
 *   session: any, scene: Scene, renderer: Renderer, viewport: Viewport,
 *   settings: import('./settings.js').Settings, selection: Selection,
 *   commit: (operations: object[], options?: {continues?: boolean}) => object[] | null,
 *   commitReplacingPreview: (operations: object[]) => void,
 *   dropPreview: () => void,
 *   setInk: (ink: object | null) => void,
 *   cursorChanged?: () => void,
 * }} ToolContext `commit` gives the changes made (more than one for an edit too large for one change, as
 *   js/model/change-parts.js cuts it), or null when it could not be saved (the user is told why), and
 *   `continues` joins them to the latest undo step (the session's `commitAll`);
 *   `cursorChanged` says the tool's `cursor` changed while no button is down
 */

const storage = safeStorage();
const mac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

let resolveReady;
let rejectReady;
window.inkwellReady = new Promise((resolve, reject) => {
  resolveReady = resolve;
  rejectReady = reject;
});
// A page that never asks for the handle should not report an unhandled rejection.
window.inkwellReady.catch(() => {});

start().catch((error) => {
  showNotice(`The board could not open: ${error?.message ?? error}`, { alert: true, sticky: true });
  rejectReady(error);
});

async function start() {
  // Browsers sign and encrypt (WebCrypto) only on secure pages: https, or this computer's own localhost.
  // A LAN hub opened by its plain http address from another device is not one.
  if (globalThis.crypto?.subtle === undefined) {
    throw new Error(
      `this browser allows encryption only on secure pages (https://, or localhost on the hub's own computer), and ${location.origin} is not one. ` +
        'Open the hub by its https address: start it with --tls-cert and --tls-key.',
    );
  }
  let theme = resolveTheme(storedTheme(storage), matchMedia('(prefers-color-scheme: dark)').matches);
  applyTheme(document, theme);
  const { openIndexedDBStore } = await import('../sync/store-indexeddb.js');
  // The page's store, opened here: the device's access to the board (its links and key) is read from it
  // before the session opens, and kept in it for a new board before the address shows the link.
  const store = await openIndexedDBStore();
  performance.mark('inkwell:store-opened');
  const { room, access } = await resolveBoard(window, store);
  document.title = `Inkwell · ${room.slice(0, 8)}`;
  const identity = loadIdentity(storage);
  const settings = loadSettings(storage);

  const surface = byId('surface');
  const viewport = new Viewport(loadView(room));
  viewport.resize(surface.clientWidth, surface.clientHeight);

  // The images' offline cache, opened before the session: from its opening on, the page must hear every
  // event the session sends.
  const { openBlobCache } = await import('../blobs/blob-cache.js');
  const { downloadBlob } = await import('../blobs/blob-transfer.js');
  const blobCache = await openBlobCache();
  const { openSession } = await import('../sync/session.js');
  const session = await openSession({
    room,
    access,
    storage: store,
    serverURL: location.origin,
    name: identity.name,
    colour: identity.colour,
    paused: loadPaused(storage, room),
    reviewAfter: reviewAfterFrom(location.search),
    ...snapshotOptionsFrom(location.search),
  });
  const board = session.board;

  const scene = new Scene(board);
  /** The board's images: fetched apart from the changes, those in view first, and kept offline. */
  const images = new ImageLoading({
    // The access is read for each download: a replaced link changes the capability.
    download: (image, onProgress) => downloadBlob({ ...session.blobAccess, blob: image.blob, bytes: image.bytes, onProgress }),
    cache: blobCache,
    scene,
    view: () => viewport.visibleRect(),
    invalidate: (rects) => renderer.invalidate(rects),
  });
  const renderer = new Renderer({
    scene,
    viewport,
    base: /** @type {HTMLCanvasElement} */ (surface.querySelector('canvas.base')),
    overlay: /** @type {HTMLCanvasElement} */ (surface.querySelector('canvas.overlay')),
    theme,
    images: (stroke) => images.pixels(stroke),
  });
  // Whatever the board shows, or the view takes in, the loader hears of, and fetches what is in view first.
  renderer.onSceneChange(() => images.refresh());
  renderer.onViewChange(() => images.refresh());
  images.refresh();
  renderer.addLayer(loadingBars({ scene, images }));
  new ResizeObserver(() => renderer.resize(surface.clientWidth, surface.clientHeight)).observe(surface);
  renderer.resize(surface.clientWidth, surface.clientHeight);
  /**
   * The board shown instead of the live one while previewing held changes (null: the live board). It
   * takes every change the live board takes, so drawing during a preview shows at once.
   * @type {import('../model/board.js').Board | null}
   */
  let preview = null;
  /** The strokes picked for editing, on the live board: they follow whatever anyone does to them. */
  const selection = new Selection(board);
  /**
   * The board's history, shown over the board by the history panel (H); nothing is drawn meanwhile.
   * @type {HistoryPanel | null}
   */
  let historyPanel = null;
  /** The text box being typed in, if any: whatever tool opened it, it ends when drawing turns elsewhere. */
  const editor = new TextEditor({
    textarea: /** @type {HTMLTextAreaElement} */ (surface.querySelector('textarea.text-editor')),
    surface,
    session,
    renderer,
    commit: (operations) => context.commit(operations),
    onHistory: (action) => run(action),
  });
  session.addEventListener('change', (event) => {
    // While the history panel is open the board on screen is the one it shows, which it brings up to date.
    if (historyPanel?.open) historyPanel.changed();
    else renderer.noteDelta(preview === null ? event.detail.delta : preview.applyAll(event.detail.changes));
    if (selection.follow(event.detail.delta)) renderer.overlayChanged();
    editor.changed(event.detail.delta);
  });
  // Packs that failed verification (or, sealed, did not open) were kept aside, not drawn: the sync
  // indicator says so in words; a line for whoever looks at the console too.
  session.addEventListener('refused', (event) => {
    console.warn(`inkwell: kept aside received packs that failed verification: ${event.detail.reasons.join(', ')}`);
  });
  // A room snapshot that does not hold what this page holds is not taken; the status says so if the board
  // is not followed for it.
  session.addEventListener('snapshot', (event) => {
    if (!event.detail.accepted) console.warn(`inkwell: refused a snapshot of the board standing for position ${event.detail.position}: ${event.detail.reason}`);
  });

  const presenceState = { cursor: null, ink: null };
  const sendPresence = () => {
    try {
      session.setPresence({ name: identity.name, colour: identity.colour, cursor: presenceState.cursor, ink: presenceState.ink });
    } catch {
      // Presence is a courtesy: a frame that cannot be sent (the session closed) is simply dropped.
    }
  };

  /** @type {ToolContext} */
  const context = {
    session,
    scene,
    renderer,
    viewport,
    settings,
    selection,
    commit(operations, options) {
      if (operations.length === 0) return null;
      try {
        return session.commitAll(operations, options);
      } catch (error) {
        showNotice(`That change could not be saved: ${error?.message ?? error}`, { alert: true });
        return null;
      }
    },
    commitReplacingPreview(operations) {
      if (operations.length === 0) {
        renderer.dropPreview();
        return;
      }
      renderer.clearPreviewWithNextDelta();
      if (context.commit(operations) === null) renderer.dropPreview();
    },
    dropPreview: () => renderer.dropPreview(),
    setInk(ink) {
      presenceState.ink = ink;
      sendPresence();
    },
    cursorChanged: () => input.updateCursor(),
  };

  const tools = {
    select: new SelectTool(context),
    lasso: new LassoTool(context),
    pen: new PenTool(context),
    highlighter: new HighlighterTool(context),
    eraser: new EraserTool(context),
    'stroke-eraser': new StrokeEraserTool(context),
    text: new TextTool(context, editor),
  };
  const selecting = () => settings.tool === 'select' || settings.tool === 'lasso';
  const selectionActions = new SelectionActions(context, {
    selectTool: () => selecting() || setTool('select'),
    imageBytes: (image) => images.bytesAtHand(image),
    rehome: (strokes) => adder.rehome(strokes),
  });
  /** What pointer input drives on a view link: nothing is drawn; the view still pans and zooms. */
  const looking = { cursor: 'default', active: false, down() {}, move() {}, up() {}, cancel() {}, layer() {} };
  let readOnly = false;
  const currentTool = () => (readOnly || historyPanel?.open ? looking : tools[settings.tool] ?? tools.pen);
  renderer.addLayer((ctx) => currentTool().layer(ctx, renderer));

  const input = new PointerInput({
    surface,
    viewport,
    requestFrame: () => renderer.requestFrame(),
    tool: currentTool,
    onCursor(point) {
      presenceState.cursor = point;
      sendPresence();
    },
  });
  input.updateCursor();

  const presence = new PresenceView({ layer: surface.querySelector('.cursors'), renderer, peers: () => session.peers });
  const people = new PeopleView({
    button: byId('people'),
    panel: byId('people-panel'),
    identity,
    peers: () => session.peers,
    onRename(name) {
      identity.name = name;
      saveIdentity(storage, identity);
      sendPresence();
      people.render();
    },
  });
  const known = new KnownPeople(storage);
  session.addEventListener('presence', (event) => {
    presence.update(event.detail.device, event.detail.peer);
    people.render();
    // A name learnt (or changed) may name an author of held changes.
    if (event.detail.peer !== null && known.remember(event.detail.device, event.detail.peer)) showReview();
  });
  presence.refresh();

  const indicator = new SyncIndicator({
    button: byId('sync'),
    panel: byId('sync-panel'),
    context: () => ({ room, device: session.device, peers: session.peers.size, online: navigator.onLine }),
    toggle: byId('sharing'),
    onToggle(pause) {
      if (pause) session.pause();
      else session.resume();
      savePaused(storage, room, session.paused);
      showNotice(pause ? 'Sharing paused: your changes stay on this device until you resume' : 'Sharing resumed');
    },
  });
  indicator.show(session.status);
  images.addEventListener('progress', () => {
    indicator.showImages(images.summary());
    renderer.overlayChanged();
  });
  images.addEventListener('decoded', () => renderer.overlayChanged());
  // A board the server does not know yet: a calm note for as long as the session waits for it.
  let waiting = false;
  const showWaiting = (status) => {
    if (Boolean(status.waiting) === waiting) return;
    waiting = Boolean(status.waiting);
    if (waiting) showNotice(WAITING, { sticky: true });
    else hideNotice(WAITING);
  };
  showWaiting(session.status);
  session.addEventListener('status', (event) => {
    indicator.show(event.detail);
    showWaiting(event.detail);
  });

  // Changes from others held after time away: the banner, the preview, the merge.
  const reviewState = () => {
    const { count, authors } = session.review;
    const labels = authors.map((author) => known.label(author.replica, session.peers));
    return { count, authors: labels, text: count > 0 ? reviewSummary(count, labels) : '', previewing: preview !== null };
  };
  const banner = new ReviewBanner({
    element: byId('review'),
    onShow: () => setPreview(preview === null),
    onMerge() {
      setPreview(false);
      const merged = session.mergeHeld();
      if (merged > 0) showNotice(`Merged ${merged} ${merged === 1 ? 'change' : 'changes'} into the board`);
    },
  });
  function showReview() {
    const { count, authors, previewing } = reviewState();
    banner.render({ count, labels: authors, previewing });
  }
  /** Shows the board with the held changes merged (a preview), or the live board again. */
  function setPreview(on) {
    if (on && session.review.count === 0) on = false;
    if (on === (preview !== null)) return;
    currentTool().cancel();
    editor.finish();
    // The selection names strokes of the live board; a preview shows another.
    if (on) selection.clear();
    preview = on ? session.previewBoard() : null;
    scene.board = preview ?? board;
    renderer.noteDelta({ strokes: new Set(), reordered: false, everything: true });
    surface.classList.toggle('previewing', on);
    showReview();
  }
  historyPanel = new HistoryPanel({
    root: byId('history-panel'),
    session,
    show(past, delta) {
      scene.board = past ?? preview ?? board;
      renderer.noteDelta(delta ?? { strokes: new Set(), reordered: false, everything: true });
      surface.classList.toggle('history', past !== null);
      input.updateCursor();
    },
    commit(operations) {
      if (!readOnly) return context.commit(operations);
      showNotice('View only: this link lets you look at the board, not restore it');
      return null;
    },
    who: (replica) => (replica === session.device ? 'You' : known.label(replica, session.peers)),
    notify: (text) => showNotice(text),
    undoKey: mac ? '⌘Z' : 'Ctrl+Z',
  });
  const help = new HelpSheet(/** @type {HTMLDialogElement} */ (byId('help-sheet')), mac);
  /** Opens the history panel over the live board, or closes it. */
  function toggleHistory() {
    if (historyPanel.open) return historyPanel.close();
    currentTool().cancel();
    editor.finish();
    selection.clear();
    setPreview(false);
    historyPanel.openPanel();
    input.updateCursor();
  }
  session.addEventListener('review', () => {
    if (preview !== null) {
      if (session.review.count === 0) setPreview(false);
      else renderer.noteDelta(preview.applyAll(session.heldChanges()));
    }
    showReview();
  });
  showReview();

  const toolbar = new Toolbar(byId('toolbar'), { run, setColour, setWidth, setTextSize }, { mac });
  const showSettings = () => {
    toolbar.show(settings, { zoom: viewport.scale, theme });
    saveSettings(storage, settings);
  };
  renderer.onViewChange(() => {
    toolbar.show(settings, { zoom: viewport.scale, theme });
    saveViewSoon(room, viewport);
    editor.place();
  });
  showSettings();
  selection.onChange(() => {
    toolbar.showSelection(selection.size);
    renderer.overlayChanged();
  });
  const showHistory = () => toolbar.showHistory(session.canUndo ?? true, session.canRedo ?? true);
  session.addEventListener('change', showHistory);
  showHistory();

  function setTool(name) {
    if (name === settings.tool) return;
    currentTool().cancel();
    currentTool().hoverAt?.(null);
    editor.finish();
    settings.tool = name;
    // A selection shows and is edited with the select and lasso tools only.
    if (!selecting()) selection.clear();
    input.updateCursor();
    renderer.overlayChanged();
    showSettings();
  }

  /**
   * Picks the pen's colour; with strokes selected, recolours them instead of taking up the pen; while a text
   * box is typed in, recolours it. The text tool keeps it for new boxes.
   */
  function setColour(colour, { live = false } = {}) {
    if (readOnly) return;
    settings.colour = colour;
    if (selection.size > 0) {
      if (!live && !currentTool().active) selectionActions.recolour(colour);
    } else if (editor.active) {
      if (!live) editor.restyle({ colour });
    } else if (settings.tool !== 'pen' && settings.tool !== 'highlighter' && settings.tool !== 'text') {
      setTool('pen');
    }
    showSettings();
  }

  /** Picks the size of new text boxes, and of the one being typed in. */
  function setTextSize(size) {
    if (readOnly) return;
    settings.textSize = size;
    editor.restyle({ size });
    showSettings();
  }

  /** Sets the pen's width, and the selected strokes' once it is picked. */
  function setWidth(width, { live = false } = {}) {
    if (readOnly) return;
    settings.width = clampWidth(width);
    if (!live && !currentTool().active) selectionActions.setWidth(settings.width);
    renderer.overlayChanged();
    showSettings();
  }

  function zoomBy(factor) {
    viewport.zoomAt(factor, viewport.width / 2, viewport.height / 2);
    renderer.requestFrame();
  }

  async function exportAs(kind) {
    try {
      // The live board, also while previewing held changes: they are not part of it yet. With strokes
      // selected, only they.
      const only = selection.size > 0 ? new Set(selection.ids) : null;
      // The images' bytes and pixels first, from memory or the offline cache: what is not here is a grey box.
      const exported = board.strokes().filter((stroke) => only === null || only.has(stroke.id));
      const blob =
        kind === 'svg'
          ? svgBlob(board, only, await images.bytesFor(exported))
          : await pngBlob(preview === null ? scene : new Scene(board), { only, images: await images.pixelsFor(exported) });
      download(blob, exportFilename(room, kind));
      if (only !== null) showNotice(exportedNotice(exported));
    } catch (error) {
      showNotice(`Export failed: ${error?.message ?? error}`, { alert: true });
    }
  }

  /** Runs a toolbar or keyboard action. @param {string} action */
  function run(action) {
    // The sheet is a modal dialog: Escape closes it (the page's key handler takes the key from the browser).
    if (action === 'help' || (action === 'cancel' && help.open)) return help.toggle();
    if (action === 'history') return toggleHistory();
    if (action === 'cancel' && historyPanel.open) return historyPanel.close();
    if (historyPanel.open && DRAWING_ACTIONS.test(action)) return showNotice('Close the history to draw (Esc)');
    if (readOnly && DRAWING_ACTIONS.test(action)) {
      // Escape and the arrow keys have nothing to say on a view link (there is no selection to nudge).
      if (action === 'cancel' || action.startsWith('nudge:')) return;
      // A refused link keeps saying why; a view link says what it allows.
      const { denied, detail } = session.status;
      if (denied !== null) showNotice(detail, { alert: true, sticky: true });
      else showNotice('View only: this link lets you look at the board, not draw on it');
      return;
    }
    if (action.startsWith('tool:')) return setTool(action.slice(5));
    // Edits of the selection wait for the drag under way to end, as undo does.
    if (SELECTION_ACTIONS.test(action)) return void (currentTool().active || selectionActions.run(action));
    switch (action) {
      case 'cancel':
        // Escape first abandons a drag, then finishes the text being typed (the field may have lost the
        // focus), then lets go of the selection.
        if (currentTool().active) return currentTool().cancel();
        if (editor.active) return editor.finish();
        return selection.clear();
      case 'undo':
      case 'redo': {
        if (currentTool().active) return;
        const change = action === 'undo' ? session.undo() : session.redo();
        if (change !== null) return;
        if (action === 'redo') showNotice('Nothing to redo');
        else if (session.undoReachedItsEnd) showNotice('Nothing more to undo: older changes can no longer be undone');
        else showNotice('Nothing to undo');
        return;
      }
      case 'clear':
        // As undo does, a clear waits for the stroke under way: one in mid-stroke would hide what of it is
        // saved, and the rest would go on a cleared stroke.
        if (currentTool().active || board.visibleStrokeCount === 0) return;
        if (context.commit([{ op: 'clear' }]) !== null) showNotice(`Board cleared. Undo with ${mac ? '⌘Z' : 'Ctrl+Z'}`);
        return;
      case 'toggle:shapes':
        settings.shapes = !settings.shapes;
        showNotice(settings.shapes ? 'Shape recognition on' : 'Shape recognition off');
        return showSettings();
      case 'width:down':
      case 'width:up':
        return setWidth(stepWidth(settings.width, action === 'width:up' ? 1 : -1));
      case 'zoom:in':
        return zoomBy(1.25);
      case 'zoom:out':
        return zoomBy(0.8);
      case 'zoom:reset':
        viewport.setScale(1);
        return renderer.requestFrame();
      case 'zoom:fit': {
        const bounds = scene.bounds();
        if (bounds !== null) viewport.fit(bounds);
        return renderer.requestFrame();
      }
      case 'theme':
        theme = otherTheme(theme);
        applyTheme(document, theme);
        storeTheme(storage, theme);
        renderer.setTheme(theme);
        editor.place();
        return showSettings();
      case 'image':
        return picker.open();
      case 'export-png':
        return void exportAs('png');
      case 'export-svg':
        return void exportAs('svg');
      case 'new-board':
        // A new page at `/` makes the board (its links and key) and shows its edit link.
        location.assign('/');
        return;
      default:
        return;
    }
  }

  window.addEventListener('keydown', (event) => {
    const action = shortcutFor(event);
    if (action === null) return;
    event.preventDefault();
    run(action);
  });
  // Copy, cut and paste of strokes, through the clipboard events of Ctrl/⌘+C, X and V (and the browser's
  // menu), which browsers fire with no text selected too. Text being typed or selected keeps the browser's
  // own.
  const ours = (event) => !isTyping(event.target) && (document.getSelection()?.isCollapsed ?? true);
  const canEdit = () => !readOnly && !currentTool().active;
  document.addEventListener('copy', (event) => {
    if (ours(event) && selectionActions.copy(event.clipboardData)) event.preventDefault();
  });
  document.addEventListener('cut', (event) => {
    if (ours(event) && canEdit() && selectionActions.cut(event.clipboardData)) event.preventDefault();
  });
  document.addEventListener('paste', (event) => {
    if (!ours(event)) return;
    // An image copied elsewhere (a screenshot, a picture from another page) is added; strokes copied from a
    // board carry their own type and are pasted as strokes, images among them.
    const files = filesIn(event.clipboardData);
    if (files.length > 0 && ![...(event.clipboardData?.types ?? [])].includes(STROKES_TYPE)) {
      event.preventDefault();
      void adder.add(files, pointer);
      return;
    }
    if (canEdit() && selectionActions.paste(event.clipboardData)) event.preventDefault();
  });
  /** The board point under the mouse while it is over the board: where a pasted image goes. */
  let pointer = /** @type {[number, number] | null} */ (null);
  surface.addEventListener('pointermove', (event) => {
    const bounds = surface.getBoundingClientRect();
    pointer = viewport.toBoard(event.clientX - bounds.left, event.clientY - bounds.top);
  });
  surface.addEventListener('pointerleave', () => (pointer = null));
  /** Images from files: a paste, a drop, the Image button's picker. */
  const adder = new ImageAdder({
    session,
    images,
    viewport,
    commit: (operations) => context.commit(operations),
    notify: (text, options) => showNotice(text, options),
    canAdd() {
      if (historyPanel.open) return 'Close the history to add images (Esc)';
      if (!readOnly) return null;
      // A refused link keeps saying why; a view link says what it allows.
      return session.status.denied ? session.status.detail : 'View only: this link lets you look at the board, not add images';
    },
  });
  acceptDrops({ surface, viewport, add: (files, centre) => void adder.add(files, centre) });
  const picker = new ImagePicker(/** @type {HTMLInputElement} */ (byId('image-file')), (files) => void adder.add(files));
  // A press on the board outside the text being typed finishes it (the text tool decides for itself: a press
  // on another box edits that one).
  surface.addEventListener(
    'pointerdown',
    (event) => {
      if (event.target !== editor.textarea && event.button === 0 && settings.tool !== 'text') editor.finish();
    },
    { capture: true },
  );
  // A double-click on a text box with the select tool types in it, the caret where it was clicked.
  surface.addEventListener('dblclick', (event) => {
    if (settings.tool !== 'select' || readOnly || historyPanel.open || event.target === editor.textarea) return;
    const bounds = surface.getBoundingClientRect();
    const at = viewport.toBoard(event.clientX - bounds.left, event.clientY - bounds.top);
    const hit = boxAt(scene, at, 6 / viewport.scale);
    const box = hit === null ? undefined : scene.stroke(hit);
    if (box === undefined) return;
    selection.clear();
    editor.edit(box.id, caretAt(box, at, scene.measure));
  });
  byId('new-board').addEventListener('mousedown', (e) => e.preventDefault());
  byId('new-board').addEventListener('click', () => run('new-board'));
  // This board's other tabs in this browser: told when a link is replaced here, telling this one likewise.
  const links = new LinksChannel({ room, load: () => store.loadAccess(room), adopt: (stored) => session.adoptAccess(stored) });
  // This tab's link may hold more than the others' (the room's key, where one of them opened the link
  // without it): they read the store again, and take it.
  links.announce();
  const share = new ShareDialog({
    button: byId('share'),
    root: byId('share-dialog'),
    origin: location.origin,
    state: () => ({ room, access: session.access, encrypted: session.encrypted }),
    replace: (kind) => links.replace(() => session.replaceLink(kind)),
    lanOrigins: () => lanOrigins(),
  });
  session.addEventListener('links', (event) => {
    // The address shows the link that works now, so a reload or a copied address still opens the board.
    showLink(window, event.detail);
    if (share.open) share.render();
  });

  /** Turns drawing off (a view link, a refused link) or on, and says so in the top bar. */
  function setReadOnly(on) {
    if (on === readOnly) return;
    currentTool().cancel();
    editor.finish();
    readOnly = on;
    if (on) selection.clear();
    toolbar.setReadOnly(on);
    byId('view-only').hidden = !(on && session.rights === 'view');
    surface.setAttribute('aria-label', on ? 'Whiteboard, view only: pan and zoom to look around' : 'Whiteboard: draw with a pen, mouse or finger');
    input.updateCursor();
    renderer.overlayChanged();
    showHistory();
  }
  setReadOnly(session.rights === 'view');
  /** The refusal the page is showing, if any. @type {string | null} */
  let refusal = null;
  session.addEventListener('access', (event) => {
    setReadOnly(event.detail.rights === 'view');
    // Open again after a refusal: another tab of this device handed over the link that replaced it.
    if (refusal !== null) hideNotice(refusal);
    refusal = null;
  });
  session.addEventListener('denied', async (event) => {
    // Changes made now could never be sent: drawing stops, and the page says why until it is reloaded.
    setReadOnly(true);
    // Unless another tab of this device replaced the link, and the store holds the new one: then the
    // session connects with it.
    if (event.detail.reason !== 'viewOnly' && (await links.refresh())) return;
    if (session.status.denied === null) return;
    refusal = event.detail.message;
    showNotice(refusal, { alert: true, sticky: true });
  });
  window.addEventListener('online', () => indicator.show(session.status));
  window.addEventListener('offline', () => indicator.show(session.status));
  window.addEventListener('pagehide', () => saveView(room, viewport));

  const handle = Object.freeze({
    hash: () => board.hash(),
    strokeCount: () => board.visibleStrokeCount,
    settled: () => renderer.settled,
    room,
    session,
    frameStats: renderer.stats,
    viewport,
    requestFrame: () => renderer.requestFrame(),
    exportSVG: () => boardSVG(board.strokes(), { imageBytes: (image) => images.bytesAtHand(image) }),
    review: reviewState,
    shownHash: () => scene.board.hash(),
    readOnly: () => readOnly,
    history: () => ({ open: historyPanel.open, count: session.history().length }),
    selection: () => selection.ids,
    text: (id) => board.text(id),
    editing: () => editor.state(),
    images: () =>
      board.images().map(({ id, blob, bytes, type }) => ({ id, blob, bytes, type, arrived: images.arrived(blob), decoded: images.decoded(blob) })),
    imageProgress: () => images.summary(),
  });
  Object.defineProperty(window, 'inkwell', { value: handle, writable: false, configurable: false });
  document.documentElement.dataset.ready = 'true';
  performance.mark('inkwell:ready');
  resolveReady(handle);
  void keepPageOffline();
}

/** What the page says while the server does not know the board yet. */
const WAITING = 'Waiting for this board to reach the server… It opens here by itself once whoever made it connects.';

/** The actions that change the board, or the drawing settings: none runs on a view link. */
const DRAWING_ACTIONS = /^(tool:|undo$|redo$|clear$|toggle:shapes$|width:|cancel$|selection:|nudge:|select-all$|cut$|paste$|image$)/;

/** The actions selection-actions.js runs. */
const SELECTION_ACTIONS = /^(selection:|nudge:|select-all$|copy$|cut$|paste$)/;

/** @param {string} id @returns {HTMLElement} */
function byId(id) {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page lacks #${id}`);
  return element;
}

let noticeTimer = 0;
/**
 * Shows a short message over the board.
 * @param {string} text
 * @param {{alert?: boolean, sticky?: boolean}} [options]
 */
function showNotice(text, { alert = false, sticky = false } = {}) {
  const notice = document.getElementById('notice');
  if (notice === null) return;
  notice.textContent = text;
  notice.setAttribute('role', alert ? 'alert' : 'status');
  notice.hidden = false;
  clearTimeout(noticeTimer);
  if (!sticky) noticeTimer = setTimeout(() => (notice.hidden = true), 2600);
}

/** Hides the message over the board if it still says `text`. @param {string} text */
function hideNotice(text) {
  const notice = document.getElementById('notice');
  if (notice === null || notice.textContent !== text) return;
  clearTimeout(noticeTimer);
  notice.hidden = true;
}

function safeStorage() {
  try {
    const storage = window.localStorage;
    storage.getItem('inkwell.probe');
    return storage;
  } catch {
    return null;
  }
}

function loadView(room) {
  try {
    const view = JSON.parse(storage?.getItem(`inkwell.view.${room}`) ?? 'null');
    if (view && [view.originX, view.originY, view.scale].every(Number.isFinite)) return view;
  } catch {
    // A damaged entry: start at the default view.
  }
  return {};
}

function saveView(room, viewport) {
  try {
    storage?.setItem(`inkwell.view.${room}`, JSON.stringify(viewport.toJSON()));
  } catch {
    // The view is not remembered; nothing else is lost.
  }
}

let viewTimer = 0;
function saveViewSoon(room, viewport) {
  clearTimeout(viewTimer);
  viewTimer = setTimeout(() => saveView(room, viewport), 500);
}
