/// Finds the strokes (or any items) whose boxes meet a rectangle, so erasing and selecting on a large board only
/// look at what is near.
///
/// A uniform grid of square cells in a dictionary (``BoxGrid``): the board is unbounded and mostly empty, strokes
/// are small next to it, and queries are eraser-sized, so a few cell lookups answer a query (figures in
/// BENCHMARKS.md). An item may have several boxes: a long, thin stroke indexed by the boxes of 16-point chunks
/// (``SmoothCurve/chunkBounds(pointsPerChunk:)``) is found only where its ink is, not anywhere in its overall box.
/// This type only maps ids to the grid's slots, so the grid's code is not generic and runs at full speed when
/// called from other modules.
public struct SpatialIndex<ID: Hashable & Sendable>: Sendable {
    /// Grid settings.
    public struct Configuration: Sendable {
        /// The side of a grid cell in board pixels: about an eraser drag or a stroke chunk (BENCHMARKS.md has the
        /// measurements behind 128).
        public var cellSize: Double
        /// Boxes covering more cells than this go to a list that every query scans.
        public var maximumCellsPerBox: Int

        public init(cellSize: Double = 128, maximumCellsPerBox: Int = 256) {
            self.cellSize = cellSize
            self.maximumCellsPerBox = maximumCellsPerBox
        }
    }

    var grid: BoxGrid
    var slots: [ID: Int] = [:]
    /// The id in each grid slot; `nil` for a free slot.
    var ids: [ID?] = []

    /// A non-finite or non-positive cell size is replaced by 128.
    public init(configuration: Configuration = Configuration()) {
        self.grid = BoxGrid(cellSize: configuration.cellSize, maximumCellsPerBox: configuration.maximumCellsPerBox)
    }

    public var count: Int { slots.count }

    /// The settings in use.
    public var configuration: Configuration {
        Configuration(cellSize: grid.cellSize, maximumCellsPerBox: grid.maximumCellsPerBox)
    }

    public func contains(_ id: ID) -> Bool { slots[id] != nil }

    /// The boxes stored for `id`.
    public func boxes(of id: ID) -> [Rect]? { slots[id].map { grid.boxes[$0] } }

    /// Adds `id` with one box per chunk; does nothing and returns `false` if `id` is already there.
    ///
    /// Query results list items in the order they were first inserted.
    /// - Complexity: O(c) for c cells the boxes cover.
    @discardableResult
    public mutating func insert(_ id: ID, boxes: [Rect]) -> Bool {
        guard slots[id] == nil else { return false }
        let slot = grid.add(boxes)
        if slot == ids.count { ids.append(id) } else { ids[slot] = id }
        slots[id] = slot
        return true
    }

    /// Adds `id` with a single box.
    @discardableResult
    public mutating func insert(_ id: ID, bounds: Rect) -> Bool {
        insert(id, boxes: [bounds])
    }

    /// Replaces the boxes of `id` (a stroke grew or moved), keeping its place in query order.
    ///
    /// - Returns: `false`, changing nothing, when `id` is not there.
    /// - Complexity: O(c) for c cells the old and new boxes cover.
    @discardableResult
    public mutating func update(_ id: ID, boxes: [Rect]) -> Bool {
        guard let slot = slots[id] else { return false }
        grid.replace(slot, with: boxes)
        return true
    }

    @discardableResult
    public mutating func update(_ id: ID, bounds: Rect) -> Bool {
        update(id, boxes: [bounds])
    }

    /// Removes `id`; returns whether it was there.
    ///
    /// - Complexity: O(c) for c cells its boxes cover.
    @discardableResult
    public mutating func remove(_ id: ID) -> Bool {
        guard let slot = slots.removeValue(forKey: id) else { return false }
        grid.remove(slot)
        ids[slot] = nil
        return true
    }

    /// The items with a box that meets `rect` (touching counts), each once, in insertion order.
    ///
    /// - Complexity: O(c + b + k log k) for c cells under `rect` (capped by the cells in use), b boxes filed
    ///   there and k boxes found.
    public func query(_ rect: Rect) -> [ID] {
        grid.query(rect).map { ids[$0]! }
    }
}
