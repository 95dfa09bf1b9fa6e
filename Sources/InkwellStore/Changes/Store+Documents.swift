import GRDB

extension Store {
    /// The names of the documents of `room` that hold at least one stored change, of every type, in
    /// the order of their UTF-8 bytes: what an app lists to open them.
    ///
    /// - Complexity: O(log n + d) for d documents, read from the index of changes by document.
    public func documents(room: String) throws -> [String] {
        try read { db in
            try String.fetchAll(
                db,
                sql: "SELECT DISTINCT document FROM change WHERE room = ? ORDER BY document",
                arguments: [room]
            )
        }
    }
}
