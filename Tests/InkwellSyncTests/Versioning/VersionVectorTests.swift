import InkwellSync
import Testing

@Suite struct VersionVectorTests {
    let a = Pool.replicas[0]
    let b = Pool.replicas[1]
    let c = Pool.replicas[2]

    @Test func containsEveryChangeUpToItsEntry() {
        let vector = VersionVector([a: 6, b: 3])
        #expect(vector.contains(ChangeID(replica: a, seq: 1)))
        #expect(vector.contains(ChangeID(replica: a, seq: 6)))
        #expect(!vector.contains(ChangeID(replica: a, seq: 7)))
        #expect(!vector.contains(ChangeID(replica: c, seq: 1)))
        #expect(vector.changeCount == 9)
    }

    @Test func changeCountStopsAtTheLargestCountInsteadOfOverflowing() {
        #expect(VersionVector([a: 6, b: 3]).changeCount == 9)
        #expect(VersionVector([a: .max, b: .max, c: 1]).changeCount == .max)
        #expect(VersionVector([a: 1 << 63, b: 1 << 63]).changeCount == .max)
    }

    @Test func zeroEntriesAreDropped() {
        var vector = VersionVector([a: 0, b: 2])
        #expect(vector == VersionVector([b: 2]))
        vector[b] = 0
        #expect(vector.isEmpty)
        #expect(vector == VersionVector())
    }

    @Test func comparesAsAPartialOrder() {
        let small = VersionVector([a: 2, b: 1])
        let large = VersionVector([a: 3, b: 1, c: 1])
        let other = VersionVector([a: 1, b: 5])
        #expect(small.compare(small) == .equal)
        #expect(small.compare(large) == .before)
        #expect(large.compare(small) == .after)
        #expect(small.compare(other) == .concurrent)
        #expect(large.covers(small))
        #expect(!small.covers(large))
        #expect(VersionVector().compare(small) == .before)
    }

    @Test func joinIsThePerReplicaMaximum() {
        let joined = VersionVector([a: 2, b: 7]).merged(with: VersionVector([a: 5, c: 1]))
        #expect(joined == VersionVector([a: 5, b: 7, c: 1]))
        #expect(joined.covers(VersionVector([a: 2, b: 7])))
    }

    @Test func missingNamesExactlyWhatThePeerLacks() {
        let mine = VersionVector([a: 6, b: 3, c: 7])
        let theirs = VersionVector([a: 6, b: 1, c: 9])
        #expect(
            mine.missing(from: theirs)
                == [TimelineRange(replica: b, seqs: 2...3)]
        )
        #expect(theirs.missing(from: mine) == [TimelineRange(replica: c, seqs: 8...9)])
        #expect(mine.missing(from: VersionVector()).map(\.count).reduce(0, +) == 16)
        #expect(mine.missing(from: mine).isEmpty)
    }

    @Test func describesItselfInReplicaOrder() {
        #expect(VersionVector([b: 3, a: 6]).description == "[01000000:6, 02000000:3]")
    }
}
