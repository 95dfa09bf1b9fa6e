import InkwellSync
import PropertyBased

/// Random states for the law checks, built from a small shared pool of replicas and writes so that
/// random states overlap the way real replicas' states do. Where a write's value could differ between
/// two states, it is derived from the write's stamp: one write, one value, as in a real system.
enum Pool {
    static let replicas = (1...4).map { ReplicaID(high: UInt64($0) << 56, low: UInt64($0)) }

    /// The `n`-th write of the pool: a unique, totally ordered op stamp.
    static func opStamp(_ n: Int) -> OpStamp {
        let replica = replicas[n % replicas.count]
        return OpStamp(
            stamp: Stamp(wallMilliseconds: UInt64(1_000 + n / 3)),
            change: ChangeID(replica: replica, seq: UInt64(n / replicas.count + 1)),
            index: UInt32(n % 2)
        )
    }

    /// The stamp of change `seq` of replica `replica` in the pool: increasing along each timeline.
    static func stamp(replica: Int, seq: UInt64) -> Stamp {
        Stamp(wallMilliseconds: 1_000 + seq * 10 + UInt64(replica))
    }
}

enum Generators {
    static let writes = Gen.int(in: 0...40).array(of: 0...12)

    static let max = Gen.int(in: -1_000...1_000).map { Max($0) }

    static let gCounter = zip(Gen.int(in: 0...3), Gen.uint64(in: 1...20)).array(of: 0...6).map { increments in
        var counter = GCounter()
        for (replica, amount) in increments { counter.increment(Pool.replicas[replica], by: amount) }
        return counter
    }

    static let pnCounter = zip(Gen.int(in: 0...3), Gen.uint64(in: 1...20), Gen.bool).array(of: 0...8).map { steps in
        var counter = PNCounter()
        for (replica, amount, up) in steps {
            if up {
                counter.increment(Pool.replicas[replica], by: amount)
            } else {
                counter.decrement(Pool.replicas[replica], by: amount)
            }
        }
        return counter
    }

    static let lwwRegister = Gen.int(in: 0...40).array(of: 1...6).map { writes in
        writes.dropFirst().reduce(into: LWWRegister(value(of: writes[0]), at: Pool.opStamp(writes[0]))) {
            $0.set(value(of: $1), at: Pool.opStamp($1))
        }
    }

    static let gSet = Gen.int(in: 0...20).array(of: 0...10).map { GSet($0) }

    static let twoPhaseSet = zip(Gen.int(in: 0...12), Gen.bool(0.3)).array(of: 0...12).map { steps in
        var set = TwoPhaseSet<Int>()
        for (element, remove) in steps {
            if remove { set.remove(element) } else { set.insert(element) }
        }
        return set
    }

    /// Write `n` adds element `n % 5`; a negative entry cancels the tag of write `-n`.
    static let orSet = Gen.int(in: -30...30).array(of: 0...12).map { steps in
        var set = ORSet<Int>()
        for step in steps {
            if step >= 0 {
                set.insert(step % 5, tag: Pool.opStamp(step))
            } else {
                set.remove(tags: [Pool.opStamp(-step)])
            }
        }
        return set
    }

    /// Write `n` sets key `n % 6` (or removes it when `n % 5 == 0`).
    static let lwwMap = writes.map { writes in
        var map = LWWMap<Int, Int>()
        for write in writes {
            map.set(write % 6, to: write % 5 == 0 ? nil : value(of: write), at: Pool.opStamp(write))
        }
        return map
    }

    static let versionVector = zip(Gen.int(in: 0...3), Gen.uint64(in: 0...9)).array(of: 0...5).map { entries in
        var vector = VersionVector()
        for (replica, seq) in entries {
            vector.advance(through: ChangeID(replica: Pool.replicas[replica], seq: seq + 1))
        }
        return vector
    }

    static let cut = versionVector.map { vector in
        var cut = Cut()
        for (replica, seq) in vector.entries {
            let index = Pool.replicas.firstIndex(of: replica)!
            cut.include(ChangeID(replica: replica, seq: seq), Pool.stamp(replica: index, seq: seq))
        }
        return cut
    }

    /// A baseline's state is a function of its cut: here, the set of change ids it contains.
    static let baseline = cut.map { cut in
        var baseline = Baseline(empty: GSet<ChangeID>())
        let changes = cut.vector.entries.flatMap { replica, seq in
            let index = Pool.replicas.firstIndex(of: replica)!
            return (1...seq).map {
                Change(id: ChangeID(replica: replica, seq: $0), stamp: Pool.stamp(replica: index, seq: $0), payload: ())
            }
        }
        baseline.absorb(changes) { state, change in state.insert(change.id) }
        return baseline
    }

    /// The nested case: a map of maps of counters.
    static let nested = zip(Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int(in: 0...3), Gen.uint64(in: 1...9))
        .array(of: 0...8)
        .map { steps in
            var document: [String: [String: GCounter]] = [:]
            for (outer, inner, replica, amount) in steps {
                document["o\(outer)", default: [:]]["i\(inner)", default: GCounter()]
                    .increment(Pool.replicas[replica], by: amount)
            }
            return document
        }

    /// Texts from a pool of inserts and deletes: insert n is always the same run (its text and anchor
    /// derive from n, its anchor an earlier run or the start, now and then past that run's end), delete n
    /// always hides the same characters.
    static let textSequence = Gen.int(in: -25...40).array(of: 0...14).map { steps in
        var text = TextSequence()
        for step in steps {
            if step >= 0 {
                let run = Pool.opStamp(step)
                let after =
                    step % 4 == 0
                    ? nil
                    : TextSequence.Anchor(
                        run: Pool.opStamp(Swift.max(0, step - 1 - step % 3)).operation,
                        offset: UInt32(step % 3)
                    )
                text.insert(
                    String(repeating: String(UnicodeScalar(UInt8(97 + step % 26))), count: 1 + step % 3),
                    id: run,
                    after: after
                )
            } else {
                text.delete(run: Pool.opStamp(-step).operation, offsets: UInt32(-step % 2)..<UInt32(-step % 2 + 1))
            }
        }
        return text
    }

    static func value(of write: Int) -> Int { write * 7 % 11 }
}
