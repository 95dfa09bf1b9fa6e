import InkwellStore
import InkwellSync
import Testing

@Suite struct FrontierTests {
    @Test(arguments: StoreKind.allCases)
    func theFrontierStopsAtAGapAndJumpsWhenItIsFilled(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append([change(a, 1), change(a, 2), change(a, 4), change(a, 5), change(b, 2)])
        #expect(try store.frontier(room: "room") == Cut([a: (2, change(a, 2).stamp)]))
        try store.append([change(a, 3)])
        #expect(try store.frontier(room: "room") == Cut([a: (5, change(a, 5).stamp)]))
        try store.append([change(b, 1)])
        #expect(try store.frontier(room: "room").vector == VersionVector([a: 5, b: 2]))
        #expect(try store.frontier(room: "elsewhere").vector.isEmpty)
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func frontiersAreKeptPerRoom(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append([change(a, 1, room: "x"), change(a, 2, room: "x"), change(b, 1, room: "y")])
        #expect(try store.frontier(room: "x").vector == VersionVector([a: 2]))
        #expect(try store.frontier(room: "y").vector == VersionVector([b: 1]))
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func aPeerGetsExactlyTheChangesItsVectorLacks(kind: StoreKind) throws {
        var random = SplitMix64(seed: testSeed("aPeerGetsExactlyTheChangesItsVectorLacks"))
        let opened = try kind.open()
        let store = opened.store
        var all: [StoredChange] = []
        for replica in [a, b, c] {
            for seq in 1...UInt64.random(in: 1...20, using: &random) {
                all.append(change(replica, seq, room: Bool.random(using: &random) ? "room" : "other"))
            }
        }
        try store.append(all.shuffled(using: &random))
        for _ in 0..<20 {
            var vector = VersionVector()
            for replica in [a, b, c] where Bool.random(using: &random) {
                vector[replica] = UInt64.random(in: 0...25, using: &random)
            }
            let expected = all.filter { $0.room == "room" && !vector.contains($0.id) }.sorted {
                $0.position < $1.position
            }
            #expect(try store.changes(room: "room", notIn: vector) == expected, "\(vector)")
        }
        #expect(try store.changes(room: "room", notIn: VersionVector([a: .max])).allSatisfy { $0.id.replica != a })
    }

    @Test(arguments: StoreKind.allCases)
    func theTailAfterACutHoldsOnlyThatBoardsNewerChanges(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append([
            change(a, 1), change(a, 2), change(a, 3, board: "other"), change(a, 4), change(b, 1), change(b, 2),
        ])
        let cut = Cut([a: (2, change(a, 2).stamp), b: (1, change(b, 1).stamp)])
        #expect(try store.changes(room: "room", document: "board", after: cut) == [change(b, 2), change(a, 4)])
        #expect(try store.changes(room: "room", document: "board", after: Cut()).count == 5)
    }
}
