package import InkwellSync

/// How far a room's server log has been received, by the contiguity rule of the sync protocol.
///
/// A room's log positions are 1, 2, 3, …, and each one reaches this device either as a pack or, for its
/// own pushes, as an ack, in any order across reconnects. The watermark is the highest `w` such that every
/// position up to `w` was seen: subscribing after it again loses nothing, whatever arrived out of order.
/// Seeing a position must mean its changes are stored, so a persisted watermark never runs ahead of the store.
package struct RoomCursor: Hashable, Sendable, InvariantChecking {
    /// Every position up to here has been seen.
    package private(set) var watermark: UInt64
    /// The newest position the server has named for the room.
    package private(set) var head: UInt64
    /// Positions seen beyond a gap, waiting for the gap to fill.
    package private(set) var pending: Set<UInt64> = []

    package init(watermark: UInt64) {
        self.watermark = watermark
        self.head = watermark
    }

    /// Notes that `position` was seen (its changes stored, or its push acknowledged).
    ///
    /// - Returns: whether the watermark moved.
    /// - Complexity: amortised O(1): each position enters and leaves ``pending`` once.
    @discardableResult
    package mutating func see(_ position: UInt64) -> Bool {
        head = max(head, position)
        guard position > watermark else { return false }
        guard position == watermark + 1 else {
            pending.insert(position)
            return false
        }
        watermark = position
        while pending.remove(watermark + 1) != nil { watermark += 1 }
        return true
    }

    /// Everything through `position` is held: a snapshot standing for it was taken in place of its packs.
    ///
    /// - Returns: whether the watermark moved.
    @discardableResult
    package mutating func rebase(to position: UInt64) -> Bool {
        head = max(head, position)
        guard position > watermark else { return false }
        watermark = position
        pending = pending.filter { $0 > position }
        while pending.remove(watermark + 1) != nil { watermark += 1 }
        return true
    }

    /// Notes the room's newest position, as named by a progress, packs or ack frame.
    package mutating func learn(head newest: UInt64) {
        head = max(head, newest)
    }

    /// Whether everything the server has named has been seen.
    package var isAtHead: Bool { watermark >= head }

    package func checkInvariants() throws(InvariantViolation) {
        try require(!pending.contains(watermark + 1), "the position after the watermark is pending")
        try require(pending.allSatisfy { $0 > watermark + 1 }, "a pending position is at or below the watermark")
        try require(watermark <= head && pending.allSatisfy { $0 <= head }, "a seen position is beyond the head")
    }
}
