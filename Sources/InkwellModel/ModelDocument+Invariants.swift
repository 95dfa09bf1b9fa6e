public import InkwellSync

extension ModelDocument: InvariantChecking {
    /// No zero total is kept, and every name and value is within the bounds an operation must keep to.
    public func checkInvariants() throws(InvariantViolation) {
        try require(!totals.values.contains(0), "zero total kept")
        let names = Array(totals.keys) + Array(registers.registers.keys)
        try require(
            names.allSatisfy { (1...ModelOperation.maximumFieldBytes).contains($0.count) },
            "field name out of bounds"
        )
        try require(
            registers.entries.allSatisfy { $0.value.count <= ModelOperation.maximumValueBytes },
            "value out of bounds"
        )
        try registers.checkInvariants()
    }
}
