import InkwellStore
import InkwellSync
import InkwellWire
import Testing

@Suite struct AppendTests {
    @Test(arguments: StoreKind.allCases)
    func appendedChangesReadBackIdentically(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        let changes = [change(a, 1), change(b, 1, board: "other"), change(a, 2, payload: [], entities: [])]
        let result = try store.append(changes)
        #expect(result.inserted == changes.map(\.id))
        #expect(result.duplicates.isEmpty)
        for stored in changes { #expect(try store.change(stored.id) == stored) }
        #expect(try store.change(ChangeID(replica: c, seq: 1)) == nil)
        #expect(try store.changes(room: "room", document: "board") == [changes[0], changes[2]])
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func appendingTheSameChangeAgainChangesNothing(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append([change(a, 1), change(a, 2)])
        let again = try store.append([change(a, 2), change(a, 3), change(a, 3)])
        #expect(again.inserted == [ChangeID(replica: a, seq: 3)])
        #expect(again.duplicates == [ChangeID(replica: a, seq: 2), ChangeID(replica: a, seq: 3)])
        #expect(try store.changes(room: "room", document: "board").count == 3)
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func aReusedIdWithOtherBytesRejectsTheWholeBatch(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append([change(a, 1)])
        let batch = [change(b, 1), change(a, 1, payload: [9, 9]), change(c, 1)]
        #expect(throws: StoreError.conflictingDuplicate(ChangeID(replica: a, seq: 1))) { try store.append(batch) }
        #expect(try store.changes(room: "room", document: "board") == [change(a, 1)])
        #expect(try store.frontier(room: "room").vector == VersionVector([a: 1]))
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func aConflictInsideOneBatchIsRejected(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        let batch = [change(a, 1), change(a, 1, at: 5_000)]
        #expect(throws: StoreError.conflictingDuplicate(ChangeID(replica: a, seq: 1))) { try store.append(batch) }
        #expect(try store.changes(room: "room", document: "board").isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func anOversizedPayloadIsRejectedAndNothingStored(kind: StoreKind) throws {
        let store = try kind.open(configuration: .init(maximumChangeBytes: 64)).store
        let big = change(a, 2, payload: Array(repeating: 7, count: 65))
        let error = #expect(throws: StoreError.self) { try store.append([change(a, 1), big]) }
        #expect(error?.description == "payload of 65 bytes exceeds 64 bytes (\(big.id))")
        #expect(try store.changes(room: "room", document: "board").isEmpty)
        try store.append([change(a, 1, payload: Array(repeating: 7, count: 64))])
    }

    /// Refusing a change the wire carries would leave this replica showing another board than its peers'.
    @Test func byDefaultAStoreKeepsEveryChangeTheWireCarries() {
        #expect(Store.Configuration().maximumChangeBytes == WireLimits.maximumChangeBytes)
    }

    @Test(arguments: StoreKind.allCases)
    func emptyRoomOrBoardNamesAreRejected(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        #expect(throws: StoreError.emptyName(ChangeID(replica: a, seq: 1))) {
            try store.append([change(a, 1, room: "")])
        }
        #expect(throws: StoreError.emptyName(ChangeID(replica: a, seq: 1))) {
            try store.append([change(a, 1, board: "")])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aSeqBeyondSQLiteIntegersIsRejected(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        let huge = change(a, UInt64(Int64.max) + 1, at: 5_000)
        #expect(throws: StoreError.outOfRange(huge.id)) { try store.append([huge]) }
    }

    @Test(arguments: StoreKind.allCases)
    func stampsMustIncreaseAlongATimelineWhateverTheArrivalOrder(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        try store.append([change(a, 1, at: 100), change(a, 5, at: 500)])
        let tooLate = change(a, 3, at: 600)
        let tooEarly = change(a, 3, at: 50)
        #expect(throws: StoreError.stampNotMonotonic(tooLate.id)) { try store.append([tooLate]) }
        #expect(throws: StoreError.stampNotMonotonic(tooEarly.id)) { try store.append([tooEarly]) }
        #expect(throws: StoreError.stampNotMonotonic(tooEarly.id)) { try store.append([change(a, 3, at: 100)]) }
        try store.append([change(a, 3, at: 300)])
        try store.checkInvariants()
    }

    @Test(arguments: StoreKind.allCases)
    func stampsAcrossTheWholeRangeKeepTheirOrder(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        let raws: [UInt64] = [1, 1 << 62, (1 << 63) - 1, 1 << 63, (1 << 63) + 1, .max - 1]
        let changes = raws.enumerated().map { index, raw in
            StoredChange(
                id: ChangeID(replica: index.isMultiple(of: 2) ? b : a, seq: UInt64(index / 2 + 1)),
                stamp: Stamp(rawValue: raw),
                room: "room",
                document: "board",
                schemaVersion: 1,
                payload: []
            )
        }
        try store.append(changes.reversed())
        #expect(try store.changes(room: "room", document: "board").map(\.stamp.rawValue) == raws)
        #expect(try store.latestStamp == Stamp(rawValue: .max - 1))
    }

    @Test(arguments: StoreKind.allCases)
    func anEmptyStoreStartsTheClockAtZero(kind: StoreKind) throws {
        let opened = try kind.open()
        let store = opened.store
        #expect(try store.latestStamp == .zero)
        #expect(try store.lastSeq(of: store.replica) == 0)
        try store.append([change(store.replica, 1), change(store.replica, 2), change(a, 7)])
        #expect(try store.lastSeq(of: store.replica) == 2)
        #expect(try store.lastSeq(of: a) == 7)
    }

    @Test(arguments: StoreKind.allCases)
    func boardsComeBackInTotalOrderForAnyArrivalOrder(kind: StoreKind) throws {
        var random = SplitMix64(seed: testSeed("boardsComeBackInTotalOrder"))
        let opened = try kind.open()
        let store = opened.store
        var reference: [StoredChange] = []
        for replica in [a, b, c] {
            var wall: UInt64 = 1_000
            for seq in 1...UInt64(30) {
                wall += UInt64.random(in: 1...3, using: &random)
                let board = ["one", "two"].randomElement(using: &random)!
                reference.append(change(replica, seq, at: wall, board: board))
            }
        }
        var arrivals = reference.shuffled(using: &random)
        while !arrivals.isEmpty {
            let batch = arrivals.prefix(Int.random(in: 1...10, using: &random))
            arrivals.removeFirst(batch.count)
            try store.append(Array(batch))
            try store.checkInvariants()
        }
        for board in ["one", "two"] {
            let expected = reference.filter { $0.document == board }.sorted { $0.position < $1.position }
            #expect(try store.changes(room: "room", document: board) == expected)
        }
    }
}
