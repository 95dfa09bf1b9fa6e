import GRDB
public import InkwellSync

extension Store {
    /// The documents of a room, sorted by name: all of them, those of one type, and those whose names
    /// lie in `names` (the days of a log between two dates, when days are named `YYYY-MM-DD`).
    ///
    /// Read from the store's index of documents, kept as changes are appended: finding the documents
    /// an app needs reads no change and loads no document.
    ///
    /// - Complexity: O(log d + k) for k documents listed out of the store's d, when a type is given;
    ///   O(d) over the room's documents otherwise.
    public func documents(
        room: String,
        type: DocumentType? = nil,
        names: ClosedRange<String>? = nil
    ) throws -> [String] {
        var sql = "SELECT DISTINCT name FROM document WHERE room = ?"
        var arguments: StatementArguments = [room]
        if let type {
            sql += " AND type = ?"
            arguments += [type.rawValue]
        }
        if let names {
            sql += " AND name BETWEEN ? AND ?"
            arguments += [names.lowerBound, names.upperBound]
        }
        sql += " ORDER BY name"
        return try read { db in try String.fetchAll(db, sql: sql, arguments: arguments) }
    }
}
