extension SpatialIndex {
    /// Checks that ids, slots, cells and the scanned list agree; stops the program when they do not.
    ///
    /// - Complexity: O(n + c) for n boxes and c filed items.
    public func checkInvariants() {
        precondition(ids.count == grid.boxes.count, "ids and slots differ in number")
        for (slot, id) in ids.enumerated() {
            if let id {
                precondition(slots[id] == slot, "slot \(slot) is not the one its id maps to")
            } else {
                precondition(grid.orders[slot] == -1, "slot \(slot) has no id but is in use")
            }
        }
        precondition(slots.count + grid.freeSlots.count == ids.count, "slots leak")
        grid.checkInvariants()
    }
}

extension BoxGrid {
    /// Checks that every box is filed exactly where it belongs and nothing else is.
    func checkInvariants() {
        precondition(boxes.count == orders.count, "boxes and orders differ in number")
        var expected: [CellKey: [Item]] = [:]
        var expectedScanned: [Item] = []
        var seenOrders: Set<Int> = []
        for slot in boxes.indices {
            guard orders[slot] >= 0 else {
                precondition(freeSlots.contains(slot) && boxes[slot].isEmpty, "unused slot \(slot) is not free")
                continue
            }
            precondition(orders[slot] < nextOrder && seenOrders.insert(orders[slot]).inserted, "order reused")
            for box in boxes[slot] {
                let item = Item(box: box, slot: Int32(slot))
                guard let range = filing(box) else {
                    expectedScanned.append(item)
                    continue
                }
                for y in range.minY...range.maxY {
                    for x in range.minX...range.maxX { expected[CellKey(x: x, y: y), default: []].append(item) }
                }
            }
        }
        precondition(Set(freeSlots).count == freeSlots.count, "a slot is free twice")
        precondition(sorted(scanned) == sorted(expectedScanned), "scanned list is off")
        precondition(cells.count == expected.count, "cells and boxes disagree")
        for (key, items) in cells {
            precondition(!items.isEmpty, "empty cell kept")
            precondition(sorted(items) == sorted(expected[key] ?? []), "cell \(key) is off")
        }
    }

    /// Items as bit patterns in a canonical order, for comparing lists that may hold NaN or the same box twice.
    private func sorted(_ items: [Item]) -> [[UInt64]] {
        items.map {
            [
                UInt64($0.slot), $0.box.minX.bitPattern, $0.box.minY.bitPattern, $0.box.maxX.bitPattern,
                $0.box.maxY.bitPattern,
            ]
        }
        .sorted { $0.lexicographicallyPrecedes($1) }
    }
}
