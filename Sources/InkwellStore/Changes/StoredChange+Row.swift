import Foundation
import GRDB
import InkwellSync

extension StoredChange {
    /// The columns every change query selects, in the order ``init(row:)`` reads them.
    static let columns = "replica, seq, stamp, room, document, schema_version, payload, entities, type"

    /// Reads a row selected with ``columns``; throws rather than trap on a damaged row.
    init(row: Row) throws {
        let replica = SQLValues.replica(stored: row[0])
        let seq: Int64 = row[1]
        guard let replica, seq >= 1, let schemaVersion = UInt32(exactly: row[5] as Int64) else {
            throw StoreError.corruptRow("change")
        }
        let id = ChangeID(replica: replica, seq: UInt64(seq))
        let payload = try row.withUnsafeData(atIndex: 6) { $0.map { [UInt8]($0) } }
        let entities = try row.withUnsafeData(atIndex: 7) { $0.flatMap(EntityList.decode) }
        guard let payload, let entities else { throw StoreError.corruptRow("change", id) }
        self.init(
            id: id,
            stamp: SQLValues.stamp(stored: row[2]),
            room: row[3],
            document: row[4],
            type: DocumentType(row[8] as String),
            schemaVersion: schemaVersion,
            payload: payload,
            entities: entities
        )
    }
}

/// Entity names packed into one blob: per name a 4-byte little-endian length, then its UTF-8 bytes.
///
/// A blob keeps any string exact (no separator to escape) and costs one column, not a row per entity.
enum EntityList {
    static func encode(_ entities: [String]) -> Data {
        var data = Data()
        for entity in entities {
            let utf8 = Array(entity.utf8)
            withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { data.append(contentsOf: $0) }
            data.append(contentsOf: utf8)
        }
        return data
    }

    static func decode(_ data: Data) -> [String]? {
        var entities: [String] = []
        var index = data.startIndex
        while index < data.endIndex {
            guard data.endIndex - index >= 4 else { return nil }
            let length = (0..<4).reduce(0) { $0 | Int(data[index + $1]) << (8 * $1) }
            index += 4
            guard data.endIndex - index >= length else { return nil }
            entities.append(String(decoding: data[index..<index + length], as: UTF8.self))
            index += length
        }
        return entities
    }
}
