import InkwellClient
import InkwellTesting
import Testing

@Suite struct RoomCursorTests {
    /// The rule from the notes, stated plainly: the highest w with every position in (start, w] seen.
    static func reference(start: UInt64, seen: Set<UInt64>) -> UInt64 {
        var watermark = start
        while seen.contains(watermark + 1) { watermark += 1 }
        return watermark
    }

    @Test func everyOrderOfSixPositionsEndsAtTheLast() throws {
        let positions: [UInt64] = [1, 2, 3, 4, 5, 6]
        var orders = 0
        for order in AllOrders.permutations(of: positions) {
            orders += 1
            var cursor = RoomCursor(watermark: 0)
            var seen: Set<UInt64> = []
            for position in order {
                let before = cursor.watermark
                let moved = cursor.see(position)
                seen.insert(position)
                #expect(cursor.watermark == Self.reference(start: 0, seen: seen), "order \(order)")
                #expect(moved == (cursor.watermark != before))
                try cursor.checkInvariants()
            }
            #expect(cursor.watermark == 6 && cursor.pending.isEmpty && cursor.isAtHead)
        }
        #expect(orders == 720)
    }

    @Test func shuffledPacksAndAcksWithRepeatsFollowTheReference() throws {
        var random = SeededGenerator(seed: seed("shuffledPacksAndAcksWithRepeatsFollowTheReference"))
        for _ in 0..<200 {
            let start = UInt64.random(in: 0...50, using: &random)
            let count = UInt64.random(in: 1...300, using: &random)
            // Every position after the start arrives at least once (as a pack, an ack, or both), some
            // more than once, and a few from before the start come again after a reconnection.
            var arrivals = Array(start + 1...start + count)
            arrivals += arrivals.filter { _ in Bool.random(using: &random) }
            arrivals += (0..<5).map { _ in UInt64.random(in: 1...max(start, 1), using: &random) }
            arrivals.shuffle(using: &random)
            var cursor = RoomCursor(watermark: start)
            var seen: Set<UInt64> = []
            for position in arrivals {
                cursor.see(position)
                seen.insert(position)
                #expect(cursor.watermark == Self.reference(start: start, seen: seen))
                try cursor.checkInvariants()
            }
            #expect(cursor.watermark == start + count)
            #expect(cursor.pending.isEmpty)
        }
    }

    /// Positions are the server's word: the last one there is waits past the gap like any other.
    @Test func positionsAtTheEndOfTheRangeWaitPastTheGap() throws {
        var cursor = RoomCursor(watermark: 0)
        let moves = [cursor.see(.max), cursor.see(0)]
        #expect(moves == [false, false])
        cursor.learn(head: .max)
        #expect(cursor.watermark == 0 && cursor.pending == [.max] && cursor.head == .max && !cursor.isAtHead)
        try cursor.checkInvariants()
    }

    @Test func aGapHoldsTheWatermarkUntilItFills() throws {
        var cursor = RoomCursor(watermark: 10)
        let moves = [cursor.see(12), cursor.see(13), cursor.see(9)]
        #expect(moves == [false, false, false], "a gap, and a position at or below the watermark")
        #expect(cursor.watermark == 10 && cursor.head == 13 && !cursor.isAtHead)
        let filled = cursor.see(11)
        #expect(filled)
        #expect(cursor.watermark == 13 && cursor.isAtHead)
        cursor.learn(head: 20)
        #expect(!cursor.isAtHead)
        cursor.learn(head: 15)
        #expect(cursor.head == 20, "a stale head never moves it back")
        try cursor.checkInvariants()
    }
}

@Suite struct RoomCursorRebaseTests {
    /// A rebase stands for every position through its snapshot's; positions seen beyond a gap before
    /// it stay seen, and the watermark runs on through them.
    @Test func aRebaseMovesTheWatermarkAndKeepsWhatWasSeenBeyondIt() throws {
        var cursor = RoomCursor(watermark: 3)
        var moved = cursor.see(9) || cursor.see(11)
        #expect(!moved)
        moved = cursor.rebase(to: 8)
        #expect(moved)
        #expect(cursor.watermark == 9, "9 was seen already")
        #expect(cursor.pending == [11])
        try cursor.checkInvariants()
        moved = cursor.rebase(to: 5)
        #expect(!moved, "a rebase never moves it back")
        moved = cursor.see(10)
        #expect(moved)
        #expect(cursor.watermark == 11 && cursor.pending.isEmpty)
        try cursor.checkInvariants()
    }
}
