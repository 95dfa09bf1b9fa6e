/// A grid cell's column and row.
struct CellKey: Hashable, Sendable {
    var x: Int32
    var y: Int32
}

/// The cells a box covers, inclusive.
struct CellRange {
    var minX: Int32
    var minY: Int32
    var maxX: Int32
    var maxY: Int32

    var count: Int { (Int(maxX) - Int(minX) + 1) * (Int(maxY) - Int(minY) + 1) }
}

extension BoxGrid {
    /// The cells under `box`, or `nil` when it is not finite, inverted, or beyond the grid's ±2³⁰ cells.
    func cellRange(of box: Rect) -> CellRange? {
        let limit = Double(1 << 30)
        let minX = (box.minX / cellSize).rounded(.down)
        let minY = (box.minY / cellSize).rounded(.down)
        let maxX = (box.maxX / cellSize).rounded(.down)
        let maxY = (box.maxY / cellSize).rounded(.down)
        guard minX >= -limit, minY >= -limit, maxX < limit, maxY < limit, minX <= maxX, minY <= maxY else {
            return nil
        }
        return CellRange(minX: Int32(minX), minY: Int32(minY), maxX: Int32(maxX), maxY: Int32(maxY))
    }

    /// The cells `box` is filed under, or `nil` when it goes to the scanned list.
    func filing(_ box: Rect) -> CellRange? {
        guard let range = cellRange(of: box), range.count <= maximumCellsPerBox else { return nil }
        return range
    }

    /// Files every box of `slot` under its cells.
    mutating func file(_ slot: Int) {
        for box in boxes[slot] {
            let item = Item(box: box, slot: Int32(slot))
            guard let range = filing(box) else {
                scanned.append(item)
                continue
            }
            for y in range.minY...range.maxY {
                for x in range.minX...range.maxX {
                    cells[CellKey(x: x, y: y), default: []].append(item)
                }
            }
        }
    }

    /// Takes every box of `slot` out of its cells, dropping cells that become empty.
    mutating func unfile(_ slot: Int) {
        let owner = Int32(slot)
        for box in boxes[slot] {
            guard let range = filing(box) else { continue }
            for y in range.minY...range.maxY {
                for x in range.minX...range.maxX {
                    let key = CellKey(x: x, y: y)
                    cells[key]?.removeAll { $0.slot == owner }
                    if cells[key]?.isEmpty == true { cells[key] = nil }
                }
            }
        }
        scanned.removeAll { $0.slot == owner }
    }
}
