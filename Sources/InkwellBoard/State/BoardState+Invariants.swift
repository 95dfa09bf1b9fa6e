import InkwellGeometry
public import InkwellSync

extension BoardState: InvariantChecking {
    /// The stack holds exactly the strokes that should be visible, sorted, with matching entries.
    ///
    /// - Complexity: O(strokes · log strokes).
    public func checkInvariants() throws(InvariantViolation) {
        try require(zip(stack, stack.dropFirst()).allSatisfy { $0 < $1 }, "stack not strictly sorted")
        try require(stack.count == records.values.count { $0.stacked != nil }, "stack and its records disagree")
        for entry in stack {
            try require(records[entry.id]?.stacked == entry, "stack entry not in its record")
            try require(records[entry.id]?.stacked?.id == entry.id, "stack entry in another record")
        }
        for (id, record) in records {
            try require(stackEntry(for: id) == record.stacked, "stroke \(id) stacked wrongly")
        }
        var ruled = Set(activity.keys).union(inactive)
        for (replica, settled) in settlements {
            for entry in settled.entries { ruled.formUnion(entry.inactive.map { ChangeID(replica: replica, seq: $0) }) }
        }
        for change in ruled {
            try require(activityByRule(of: change) == isActive(change), "change \(change) has the wrong activity")
        }
        for record in records.values {
            try require(record.pressures == nil || record.pressures!.count == record.points.count, "pressure count")
            try require(record.added != nil || record.points.isEmpty, "points laid out before the add arrived")
        }
    }
}

extension BoardState {
    /// Canonical bytes of everything the board holds, visible or not: stricter than
    /// ``canonicalEncoding()`` for convergence tests, and not part of any protocol.
    package func stateEncoding() -> [UInt8] {
        var encoder = CanonicalEncoder()
        for id in records.keys.sorted() {
            let record = records[id]!
            id.encode(to: &encoder)
            if let added = record.added {
                encoder.writeVarint(1)
                added.position.encode(to: &encoder)
            } else {
                encoder.writeVarint(0)
            }
            encoder.writeVarint(UInt64(record.points.count))
            for point in record.points {
                encoder.write(point.x)
                encoder.write(point.y)
            }
            encoder.write(record.appends.map(\.change))
            for change in record.erases.keys.sorted() {
                change.encode(to: &encoder)
                for interval in record.erases[change]! {
                    encoder.write(interval.lower)
                    encoder.write(interval.upper)
                }
            }
            for attribute in Attribute.allCases {
                let writes = record.attributes[attribute]?.writes ?? []
                encoder.write(writes.map(\.position))
                encoder.write(record.attributes[attribute]?.current(isActive: isActive).map { "\($0)" })
            }
        }
        for target in activity.keys.sorted() {
            target.encode(to: &encoder)
            encoder.write(activity[target]!)
        }
        encoder.write(clears)
        for replica in settlements.keys.sorted() {
            replica.encode(to: &encoder)
            for entry in settlements[replica]!.entries {
                encoder.write([entry.seq, UInt64(entry.index), entry.through] + entry.inactive)
            }
        }
        encoder.write(inactive.sorted())
        encoder.write(applied.ids.sorted())
        return encoder.bytes + canonicalEncoding()
    }
}
