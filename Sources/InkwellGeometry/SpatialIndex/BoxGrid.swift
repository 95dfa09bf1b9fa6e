/// The storage behind ``SpatialIndex``: numbered slots of boxes filed under the grid cells they cover.
///
/// Cells live in a dictionary, so only cells with ink cost memory and the board has no edges. Each filed item
/// carries its box, so a query tests boxes without leaving the cell. Boxes too big for the grid, or not
/// finite, go to a list that every query scans.
struct BoxGrid: Sendable {
    /// One box of one slot, as filed.
    struct Item: Hashable, Sendable {
        var box: Rect
        var slot: Int32
    }

    let cellSize: Double
    let maximumCellsPerBox: Int
    /// The boxes of each slot; empty for a free slot.
    var boxes: [[Rect]] = []
    /// Each slot's place in query order; -1 for a free slot.
    var orders: [Int] = []
    var freeSlots: [Int] = []
    var cells: [CellKey: [Item]] = [:]
    var scanned: [Item] = []
    var nextOrder = 0

    init(cellSize: Double, maximumCellsPerBox: Int) {
        self.cellSize = cellSize.isFinite && cellSize > 0 ? cellSize : 128
        self.maximumCellsPerBox = Swift.max(maximumCellsPerBox, 1)
    }

    /// Files `newBoxes` under a free slot, last in query order, and returns the slot.
    mutating func add(_ newBoxes: [Rect]) -> Int {
        let slot = freeSlots.popLast() ?? boxes.count
        if slot == boxes.count {
            boxes.append([])
            orders.append(-1)
        }
        boxes[slot] = newBoxes
        orders[slot] = nextOrder
        nextOrder += 1
        file(slot)
        return slot
    }

    mutating func replace(_ slot: Int, with newBoxes: [Rect]) {
        unfile(slot)
        boxes[slot] = newBoxes
        file(slot)
    }

    mutating func remove(_ slot: Int) {
        unfile(slot)
        boxes[slot] = []
        orders[slot] = -1
        freeSlots.append(slot)
    }

    /// The slots with a box meeting `rect`, each once, in query order.
    func query(_ rect: Rect) -> [Int] {
        guard !rect.minX.isNaN, !rect.minY.isNaN, !rect.maxX.isNaN, !rect.maxY.isNaN else { return [] }
        var found: [(order: Int, slot: Int)] = []
        if let range = cellRange(of: rect), range.count <= cells.count {
            for y in range.minY...range.maxY {
                for x in range.minX...range.maxX {
                    guard let items = cells[CellKey(x: x, y: y)] else { continue }
                    for item in items where item.box.intersects(rect) {
                        found.append((orders[Int(item.slot)], Int(item.slot)))
                    }
                }
            }
        } else {
            for items in cells.values {
                for item in items where item.box.intersects(rect) {
                    found.append((orders[Int(item.slot)], Int(item.slot)))
                }
            }
        }
        for item in scanned where item.box.intersects(rect) { found.append((orders[Int(item.slot)], Int(item.slot))) }
        if found.count > 1 { found.sort { $0.order < $1.order } }
        var slots: [Int] = []
        slots.reserveCapacity(found.count)
        var previous = -1
        for hit in found where hit.order != previous {
            slots.append(hit.slot)
            previous = hit.order
        }
        return slots
    }
}
