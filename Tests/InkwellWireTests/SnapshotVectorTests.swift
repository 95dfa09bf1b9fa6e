import Foundation
import InkwellSync
import InkwellTesting
import SwiftProtobuf
import Testing

@testable import InkwellBoard
@testable import InkwellWire

/// Room snapshots on the wire, for every reader: `Conformance/snapshots.json` holds parts made by Swift
/// (plain and sealed) with what they decode to, parts every reader refuses, whole snapshots with Swift's
/// verdict on them, and signed snapshot checks.
@Suite struct SnapshotVectorTests {
    @Test func snapshotVectorsAreCurrent() throws {
        try ConformanceVectorFile(name: "snapshots.json").check([
            "format": "inkwell-snapshot-conformance/1",
            "about": "Bytes are lowercase hex. `parts`: a snapshot part signed by `seed`, sealed with `key` when "
                + "given (under `nonce`), read for `room` to `cover` and `changes`. `refusedParts`: read for `room` "
                + "(with `key` when given), fail with `error`. `assemblies`: the parts of one snapshot, read for "
                + "`room`, assemble to `changes` in order, or fail with `error`. `checks`: a SnapshotChecked "
                + "by `seed` for `room` and `snapshot`: `author`, `signature`, over `signingInput`.",
            "parts": try SnapshotVectors.parts(),
            "refusedParts": try SnapshotVectors.refusedParts(),
            "assemblies": try SnapshotVectors.assemblies(),
            "checks": SnapshotVectors.checks(),
        ])
    }
}

enum SnapshotVectors {
    static let room = SealVectors.room
    static let author = WireVectors.authorKey
    static let other = WireVectors.otherKey
    static let id = SnapshotID(bytes: (0..<16).map { UInt8(0x50 + $0) })!

    /// Changes of two replicas, the author's and another's, as a snapshot holds them.
    static func history(_ count: Int, seed: UInt64) -> [BoardChange] {
        let changes = WireVectors.randomChanges(seed: seed, count: count)
        let mine = WireVectors.authored(Array(changes.prefix(count / 2)), by: author)
        let theirs = WireVectors.authored(Array(changes.dropFirst(count / 2)), by: other)
        return mine + theirs
    }

    static func cut(of changes: [BoardChange]) -> Cut {
        var cut = Cut()
        for change in changes.sorted(by: { $0.id < $1.id }) { cut.include(change.id, change.stamp) }
        return cut
    }

    static func part(
        _ changes: [BoardChange],
        cut: Cut,
        part: UInt32 = 0,
        parts: UInt32 = 1,
        position: UInt64 = 12,
        by key: AuthorKey = author,
        sealed: RoomKey? = nil,
        nonce: UInt8 = 0
    ) -> [UInt8] {
        PackCodec.encodePart(
            room: room,
            cover: SnapshotCover(id: id, position: position, cut: cut, part: part, parts: parts),
            changes: changes.map(ChangeCodec.encode),
            author: key,
            key: sealed,
            nonce: sealed == nil ? nil : SealVectors.nonce(nonce)
        )
    }

    static func coverJSON(_ cover: SnapshotCover) -> [String: Any] {
        [
            "id": WireHex.encode(cover.id.bytes), "position": cover.position, "part": cover.part,
            "parts": cover.parts,
            "cut": cover.cut.vector.entries.keys.sorted().map { replica in
                [
                    "replica": replica.description, "seq": cover.cut.vector[replica],
                    "stamp": String(cover.cut.stamps[replica]!.rawValue),
                ] as [String: Any]
            },
        ]
    }

    static func parts() throws -> [[String: Any]] {
        let small = history(6, seed: 31)
        let large = history(40, seed: 32)
        let cases: [(String, [UInt8], RoomKey?, UInt8)] = [
            ("one plain part", part(small, cut: cut(of: small)), nil, 0),
            ("a sealed part", part(small, cut: cut(of: small), sealed: SealVectors.key, nonce: 3), SealVectors.key, 3),
            ("the second of three", part(Array(large[10..<20]), cut: cut(of: large), part: 1, parts: 3), nil, 0),
        ]
        return try cases.map { name, bytes, key, nonce in
            let decoded = try PackCodec.decodeSnapshotPart(bytes, room: room, key: key)
            var vector: [String: Any] = [
                "name": name, "room": room, "bytes": WireHex.encode(bytes), "id": WireHex.encode(decoded.id.bytes),
                "seed": WireHex.encode(author.rawRepresentation), "replica": decoded.author.description,
                "cover": coverJSON(decoded.cover), "changes": decoded.changes.map(WireHex.encode),
            ]
            if let key {
                vector["key"] = WireHex.encode(key.bytes)
                vector["nonce"] = WireHex.encode(SealVectors.nonce(nonce))
            }
            return vector
        }
    }

    static func refusedParts() throws -> [[String: Any]] {
        let changes = history(6, seed: 33)
        let whole = cut(of: changes)
        var short = Cut()
        for change in changes where change.id.seq < 3 { short.include(change.id, change.stamp) }
        func envelope(_ edit: (inout WirePack) -> Void) throws -> [UInt8] {
            var wire = try WirePack(serializedBytes: Array(part(changes, cut: whole).dropLast(66)))
            edit(&wire)
            return PackCodec.signed(try wire.serializedBytes(), by: author)
        }
        let cases: [(String, [UInt8], RoomKey?)] = [
            ("a change its cut does not name", part(changes, cut: short), nil),
            ("position 0", part(changes, cut: whole, position: 0), nil),
            ("part past the parts", part(changes, cut: whole, part: 2, parts: 2), nil),
            ("no parts", try envelope { $0.snapshot.parts = 0 }, nil),
            ("an id of 15 bytes", try envelope { $0.snapshot.id = Data(repeating: 1, count: 15) }, nil),
            ("an empty cut", try envelope { $0.snapshot.cut = [] }, nil),
            (
                "a replica twice in the cut",
                try envelope { $0.snapshot.cut = [$0.snapshot.cut[0], $0.snapshot.cut[0]] }, nil
            ),
            ("a plain part in a sealed room", part(changes, cut: whole), SealVectors.key),
            ("replayed into another room", part(changes, cut: whole), nil),
        ]
        return cases.map { name, bytes, key in
            let readRoom = name == "replayed into another room" ? "room-b" : room
            var vector: [String: Any] = [
                "name": name, "room": readRoom, "bytes": WireHex.encode(bytes), "error": refusal(bytes, readRoom, key),
            ]
            if let key { vector["key"] = WireHex.encode(key.bytes) }
            return vector
        }
    }

    static func refusal(_ bytes: [UInt8], _ room: String, _ key: RoomKey?) -> String {
        do {
            _ = try PackCodec.decodeSnapshotPart(bytes, room: room, key: key)
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    static func assemblies() throws -> [[String: Any]] {
        let changes = history(12, seed: 34)
        let whole = cut(of: changes)
        var longer = whole
        longer.include(ChangeID(replica: other.replica, seq: 99), Stamp(rawValue: 1))
        var restamped = Cut()
        for (replica, seq) in whole.vector.entries {
            restamped.include(
                ChangeID(replica: replica, seq: seq),
                Stamp(rawValue: whole.stamps[replica]!.rawValue + 1)
            )
        }
        let theirs = changes.filter { $0.id.replica == other.replica }
        let cases: [(String, [[UInt8]])] = [
            (
                "whole in two parts",
                [
                    part(Array(changes[..<5]), cut: whole, parts: 2),
                    part(Array(changes[5...]), cut: whole, part: 1, parts: 2),
                ]
            ),
            ("a part missing", [part(Array(changes[..<5]), cut: whole, parts: 2)]),
            ("stands for more than it holds, which receivers that hold the rest check", [part(changes, cut: longer)]),
            ("holds a change twice", [part(Array(changes.dropLast()) + [changes[0]], cut: whole)]),
            ("a last change stamped otherwise", [part(changes, cut: restamped)]),
            ("its author holds no timeline in it", [part(theirs, cut: cut(of: theirs))]),
            (
                "parts that disagree",
                [
                    part(Array(changes[..<5]), cut: whole, parts: 2),
                    part(Array(changes[5...]), cut: whole, part: 1, parts: 2, position: 13),
                ]
            ),
            (
                "parts by two authors",
                [
                    part(Array(changes[..<5]), cut: whole, parts: 2),
                    part(Array(changes[5...]), cut: whole, part: 1, parts: 2, by: other),
                ]
            ),
        ]
        return cases.map { name, parts in
            var vector: [String: Any] = ["name": name, "room": room, "parts": parts.map(WireHex.encode)]
            do {
                var assembly: SnapshotAssembly?
                for bytes in parts {
                    let part = try PackCodec.decodeSnapshotPart(bytes, room: room)
                    if assembly == nil { assembly = SnapshotAssembly(part) } else { try assembly!.add(part) }
                }
                let snapshot = try assembly!.assembled()
                vector["changes"] = snapshot.changes.map(WireHex.encode)
                vector["position"] = snapshot.position
            } catch {
                vector["error"] = "\(error)"
            }
            return vector
        }
    }

    static func checks() -> [[String: Any]] {
        [("the author", author), ("another author", other)].map { name, key in
            let check = SnapshotCheck(room: room, snapshot: id, signedBy: key)
            return [
                "name": name, "room": room, "snapshot": WireHex.encode(id.bytes),
                "seed": WireHex.encode(key.rawRepresentation), "author": WireHex.encode(check.author),
                "signature": WireHex.encode(check.signature),
                "signingInput": WireHex.encode(SnapshotCheck.signingInput(room: room, snapshot: id)),
                "verifies": check.signer() == key.replica,
            ]
        }
    }
}
