extension ChangeLog {
    /// The highest contiguous seq of every timeline, including compacted changes.
    ///
    /// - Complexity: O(replicas).
    public var frontier: VersionVector {
        VersionVector(timelines.mapValues(\.frontier))
    }

    /// The frontier with the stamp of each timeline's frontier change: what the stable cut-off is read from.
    ///
    /// A timeline that has only changes past a gap at its start contributes nothing, and makes the
    /// cut-off unknowable: see ``stableCutoff``.
    public var frontierCut: Cut {
        var cut = Cut()
        for (replica, timeline) in timelines {
            guard let stamp = timeline.frontierStamp else { continue }
            cut.include(ChangeID(replica: replica, seq: timeline.frontier), stamp)
        }
        return cut
    }

    /// The stamp at or before which every change of every known replica is here (DESIGN §4).
    ///
    /// `nil` when the log is empty or some known timeline's first change has not arrived yet,
    /// because that change could be stamped arbitrarily early.
    ///
    /// - Complexity: O(replicas).
    public var stableCutoff: Stamp? {
        guard timelines.values.allSatisfy({ $0.frontierStamp != nil }) else { return nil }
        return frontierCut.stableCutoff
    }

    /// The missing runs of every timeline below its highest present change, in replica order.
    public var gaps: [TimelineRange] {
        timelines.sorted { $0.key < $1.key }.flatMap { replica, timeline in
            timeline.gaps.map { TimelineRange(replica: replica, seqs: $0) }
        }
    }

    /// The missing runs of one timeline.
    public func gaps(of replica: ReplicaID) -> [ClosedRange<UInt64>] {
        timelines[replica]?.gaps ?? []
    }

    /// The changes held that a peer whose contents are `vector` lacks, in the total order.
    ///
    /// Includes changes past a gap: the peer may be missing them even though this log is too.
    /// Compacted changes cannot be returned: a peer whose vector does not cover ``baselineCut`` needs
    /// the baseline itself.
    ///
    /// - Complexity: O(k log k) for k changes returned, plus O(replicas).
    @inlinable public func changes(notIn vector: VersionVector) -> [Change<Payload>] {
        var result: [Change<Payload>] = []
        for (replica, timeline) in timelines {
            let known = vector[replica]
            if known < timeline.frontier {
                let start = Int(known > timeline.base ? known - timeline.base : 0)
                result.append(contentsOf: timeline.contiguous[start...])
            }
            result.append(contentsOf: timeline.pending.drop { $0.id.seq <= known })
        }
        return result.sorted { $0.position < $1.position }
    }
}
