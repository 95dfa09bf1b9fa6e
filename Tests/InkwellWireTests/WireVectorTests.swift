import Foundation
import InkwellBoardTesting
import InkwellGeometry
import InkwellSync
import InkwellTesting
import SwiftProtobuf
import Testing

@testable import InkwellBoard
@testable import InkwellWire

/// The browser's wire codec (`Web/js/wire`) against the real Swift codecs, both ways.
///
/// `Conformance/wire.json` holds bytes made by Swift and what they decode to (changes, ink points, packs,
/// pack ids, every sync frame), hostile inputs with the error Swift reports, and seeded mutations with
/// Swift's verdict; the browser's tests must agree on every one. `Conformance/wire-js.json` holds bytes
/// made by the browser (`node Web/test/wire/write-js-vectors.mjs`), which Swift must read to the same
/// values and, where compression does not differ, write back byte for byte.
@Suite struct WireVectorTests {
    @Test func wireVectorsAreCurrent() throws {
        let changes = try WireVectors.changes()
        try ConformanceVectorFile(name: "wire.json").check([
            "format": "inkwell-wire-conformance/1",
            "about": "Bytes are lowercase hex. `changes`: `bytes` decode to `json` (the shape of board.json; an "
                + "unknown operation is {op: unknown, kind, bytes}) and `json` encodes to `reencoded` (or to `bytes` "
                + "when absent). `points`: an encoded Points message (a presence's ink). `packs`: signed by the key "
                + "of `seed` (`author`, owning `replica`), decode for `room` to `id` (SHA-256 of `bytes`), "
                + "`schemaVersion` and `changes` by code understanding `understanding` (default 1); deflate output "
                + "is not expected to match, plain packs re-encode byte for byte. `refusedPacks`: `bytes` read for "
                + "`room` fail with `error`. `frames`: ClientFrame or "
                + "ServerFrame by `direction`. `invalid`: `bytes` (or `pieces`, [hex, count] runs) fail to decode "
                + "with `error` (WireError's description). `differential`: seeded mutations and Swift's verdict: "
                + "`error`, or `decoded` (the canonical re-encoding; for packs id, schema and entries).",
            "changes": changes,
            "futureChanges": try WireVectors.futureChanges(),
            "points": try WireVectors.points(),
            "packs": try WireVectors.packs(),
            "refusedPacks": try WireVectors.refusedPacks(),
            "frames": WireVectors.frames(),
            "invalid": try WireVectors.invalid(),
            "differential": try WireVectors.differential(),
        ])
    }

    @Test func swiftReadsWhatJavaScriptWrites() throws {
        let url = ConformanceVectorFile(name: "wire-js.json").url
        let data = try Data(contentsOf: url)
        let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let changes = try #require(file["changes"] as? [[String: Any]])
        let packs = try #require(file["packs"] as? [[String: Any]])
        let frames = try #require(file["frames"] as? [[String: Any]])
        let points = try #require(file["points"] as? [[String: Any]])
        #expect(!changes.isEmpty && !packs.isEmpty && !frames.isEmpty && !points.isEmpty)

        for vector in changes {
            let name = vector["name"] as? String ?? "?"
            let bytes = try WireHex.decode(vector["bytes"])
            let change = try ChangeCodec.decode(bytes, as: BoardEdit.self)
            #expect(WireJSON.same(WireJSON.change(change), vector["json"]), "change \(name)")
            #expect(ChangeCodec.encode(change) == bytes, "change \(name) re-encodes to the same bytes")
        }
        for vector in points {
            let name = vector["name"] as? String ?? "?"
            let bytes = try WireHex.decode(vector["bytes"])
            let (decoded, pressures) = try WireVectors.decodePoints(bytes)
            #expect(WireJSON.same(WireJSON.ink(decoded, pressures), vector["json"]), "points \(name)")
            let again: [UInt8] = try OperationCodec.encode(decoded, pressures).serializedBytes()
            #expect(again == bytes, "points \(name) re-encode to the same bytes")
        }
        // The page derives keys and replicas from seeds as Swift does.
        for vector in try #require(file["authorKeys"] as? [[String: Any]]) {
            let key = try AuthorKey(rawRepresentation: try WireHex.decode(vector["seed"]))
            #expect(WireHex.encode(key.publicKey) == vector["publicKey"] as? String)
            #expect(key.replica.description == vector["replica"] as? String)
        }
        for vector in packs {
            let name = vector["name"] as? String ?? "?"
            let bytes = try WireHex.decode(vector["bytes"])
            let room = try #require(vector["room"] as? String)
            let pack = try PackCodec.decode(bytes, room: room)
            #expect(WireHex.encode(pack.id.bytes) == vector["id"] as? String, "pack \(name) id")
            #expect(pack.id == PackID(of: bytes), "pack \(name): the id is the SHA-256 of its bytes")
            let key = try AuthorKey(rawRepresentation: try WireHex.decode(vector["seed"]))
            #expect(pack.author == key.replica, "pack \(name) author")
            let jsChanges = try #require(vector["changes"] as? [Any])
            #expect(pack.changes.count == jsChanges.count, "pack \(name) changes")
            for (change, json) in zip(pack.changes, jsChanges) {
                #expect(
                    WireJSON.same(WireJSON.change(try ChangeCodec.decode(change, as: BoardEdit.self)), json),
                    "pack \(name)"
                )
            }
            if vector["compression"] as? String == "none" {
                #expect(
                    PackCodec.encode(pack.pack, signedBy: key, compression: .none) == bytes,
                    "pack \(name) re-encodes byte for byte"
                )
            }
        }
        for vector in frames {
            let name = vector["name"] as? String ?? "?"
            let bytes = try WireHex.decode(vector["bytes"])
            if vector["direction"] as? String == "client" {
                let message = try SyncCodec.decodeClient(bytes)
                #expect(WireJSON.same(WireJSON.frame(message), vector["json"]), "client frame \(name)")
                #expect(SyncCodec.encode(message) == bytes, "client frame \(name) re-encodes byte for byte")
            } else {
                let message = try SyncCodec.decodeServer(bytes)
                #expect(WireJSON.same(WireJSON.frame(message), vector["json"]), "server frame \(name)")
                #expect(SyncCodec.encode(message) == bytes, "server frame \(name) re-encodes byte for byte")
            }
        }
    }
}

/// The cases of `Conformance/wire.json`. Ids, stamps and seeds are fixed here, so the file changes only
/// when the wire format does.
enum WireVectors {
    static let alice = ReplicaID(high: 0xA11C_E000_0000_0001, low: 0x0000_0000_0000_00A1)
    static let bob = ReplicaID(high: 0xB0B0_0000_0000_0002, low: 0x0000_0000_0000_00B2)

    static func change(
        _ replica: ReplicaID,
        _ seq: UInt64,
        _ operations: [BoardOperation],
        board: String = "main",
        stamp: Stamp? = nil
    ) -> BoardChange {
        Change(
            id: ChangeID(replica: replica, seq: seq),
            stamp: stamp ?? Stamp(wallMilliseconds: 1_800_000_000_000 + seq % 1_000_000, counter: UInt16(seq % 7)),
            payload: BoardEdit(board: BoardID(board), operations: operations)
        )
    }

    static let pen = StrokeStyle(colour: Colour(rgba: 0x1234_56FF), width: 2.5)
    static let own = StrokeID(change: ChangeID(replica: alice, seq: 1))
    static let foreign = StrokeID(change: ChangeID(replica: bob, seq: 7), index: 2)
    static let wave = (0..<24).map { InkGrid.snap(Point(Double($0) * 3.3, 100 + 40 * sin(Double($0) / 5))) }

    /// Canonical changes made by `ChangeCodec.encode`, then hand-made bytes that are not canonical.
    static func changes() throws -> [[String: Any]] {
        var cases: [(String, BoardChange)] = [
            ("add stroke on the 1/8 px grid", change(alice, 1, [.addStroke(pen, points: wave, pressures: nil)])),
            (
                "add stroke with pressure bytes",
                change(
                    alice,
                    2,
                    [
                        .addStroke(
                            pen,
                            points: [Point(0, 0), Point(4, 1), Point(9, 3)],
                            pressures: [0, InkGrid.snap(pressure: 0.2), 1]
                        )
                    ]
                )
            ),
            (
                "add stroke with raw pressures",
                change(alice, 3, [.addStroke(pen, points: [Point(1, 1), Point(2, 2)], pressures: [0.3, 0.123])])
            ),
            (
                "off-grid points stay raw doubles",
                change(
                    alice,
                    4,
                    [.addStroke(pen, points: [Point(0.1, 0.2), Point(1e-7, -3), Point(.pi, 1.0 / 3)], pressures: nil)]
                )
            ),
            (
                "sub-pixel grid of 1/1024 px",
                change(
                    alice,
                    5,
                    [
                        .addStroke(
                            pen,
                            points: [Point(1.0 / 1024, 0), Point(3.5, -7.0 / 1024), Point(-100, 0.25)],
                            pressures: nil
                        )
                    ]
                )
            ),
            (
                "half-pixel grid",
                change(
                    alice,
                    6,
                    [.addStroke(pen, points: [Point(0.5, 1), Point(1.5, 2), Point(2, 2.5)], pressures: nil)]
                )
            ),
            (
                "integer grid with negative coordinates and jumps across the board",
                change(
                    alice,
                    7,
                    [
                        .addStroke(
                            pen,
                            points: [Point(-1e9, 1e9), Point(1e9, -1e9), Point(0, 0), Point(-3, 4)],
                            pressures: nil
                        )
                    ]
                )
            ),
            (
                "append points to the change's own stroke",
                change(
                    alice,
                    8,
                    [.appendPoints(own, points: [Point(200, 100.125), Point(203.5, 99)], pressures: [0.5, 1])]
                )
            ),
            (
                "append to another replica's stroke with a 64-bit seq",
                change(
                    alice,
                    9,
                    [
                        .appendPoints(
                            StrokeID(change: ChangeID(replica: bob, seq: 1 << 60), index: 3),
                            points: [Point(1, 2)],
                            pressures: nil
                        )
                    ]
                )
            ),
            (
                "erase intervals",
                change(
                    alice,
                    10,
                    [
                        .erase(
                            foreign,
                            [ParameterInterval(1.25, 3.0625), ParameterInterval(7, 9.5), ParameterInterval(-0.5, 0.5)]
                        ), .erase(own, []),
                    ]
                )
            ),
            (
                "set every attribute",
                change(
                    alice,
                    11,
                    [
                        .set(own, .colour(Colour(rgba: 0xFF00_0080))),
                        .set(foreign, .width(7)),
                        .set(own, .transform(Transform(a: 1, b: 0.5, c: -0.5, d: 1, tx: 1e300, ty: -3.25e-300))),
                        .set(own, .zOrder(-2.5)),
                        .set(foreign, .deleted(true)),
                    ]
                )
            ),
            (
                "set zero values: a oneof member is always written",
                change(
                    alice,
                    12,
                    [
                        .set(own, .colour(Colour(rgba: 0))),
                        .set(own, .width(0)),
                        .set(own, .transform(Transform(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0))),
                        .set(own, .zOrder(0)),
                        .set(own, .deleted(false)),
                    ]
                )
            ),
            (
                "undo and redo",
                change(alice, 13, [.undo(ChangeID(replica: alice, seq: 3)), .redo(ChangeID(replica: alice, seq: 3))])
            ),
            ("clear", change(bob, 1, [.clear])),
            (
                "settles, with an empty list and with a large seq",
                change(
                    alice,
                    14,
                    [.settle(through: 13, inactive: [3, 7]), .settle(through: 1, inactive: [])]
                )
            ),
            (
                "a settle reaching a safe seq",
                change(bob, (1 << 53) - 1, [.settle(through: (1 << 53) - 2, inactive: [(1 << 53) - 2, 1])])
            ),
            (
                "text boxes: a box, runs at the start and after a character, a delete, another's box",
                change(
                    alice,
                    15,
                    [
                        .addText(TextStyle(colour: Colour(rgba: 0x1122_33FF), size: 18.5), at: Point(-4.25, 1e6)),
                        .insertText(
                            StrokeID(change: ChangeID(replica: alice, seq: 15)),
                            after: nil,
                            text: "Hi 😀\né"
                        ),
                        .insertText(
                            StrokeID(change: ChangeID(replica: bob, seq: 2), index: 1),
                            after: .init(run: OperationID(change: ChangeID(replica: bob, seq: 3), index: 2), offset: 7),
                            text: "x"
                        ),
                        .deleteText(
                            StrokeID(change: ChangeID(replica: alice, seq: 15)),
                            [
                                TextRange(
                                    run: OperationID(change: ChangeID(replica: alice, seq: 15), index: 1),
                                    offsets: 0..<2
                                ),
                                TextRange(
                                    run: OperationID(change: ChangeID(replica: bob, seq: 3)),
                                    offsets: 4..<4_000_000_000
                                ),
                            ]
                        ),
                        .addText(TextStyle(colour: .black, size: 0), at: Point(0, 0)),
                    ]
                )
            ),
            (
                "a highlighter and fills",
                change(
                    alice,
                    16,
                    [
                        .addStroke(
                            StrokeStyle(colour: Colour(rgba: 0xFFDD_0060), width: 18, brush: .highlighter),
                            points: [Point(0, 0), Point(8, 1)],
                            pressures: nil
                        ),
                        .set(own, .fill(Colour(rgba: 0x0078_FF40))),
                        .set(own, .fill(Colour(rgba: 0))),
                    ]
                )
            ),
            (
                "a brush of a newer schema decodes as unknown",
                change(
                    bob,
                    8,
                    [
                        .unknown(
                            kind: 1,
                            bytes: Proto.bytes(
                                1,
                                Proto.bytes(3, Proto.varint(1, 8) + Proto.bytes(2, [0, 0])) + Proto.varint(4, 7)
                            )
                        )
                    ]
                )
            ),
            (
                "an image, and one the board ignores",
                change(
                    bob,
                    6,
                    [
                        .addImage(
                            BoardImage(
                                blob: (0..<32).map { UInt8(255 - $0) },
                                byteCount: (1 << 53) - 1,
                                type: "image/webp",
                                width: 1920.5,
                                height: 0.25
                            ),
                            at: Point(-3, 7.125)
                        ),
                        .addImage(
                            BoardImage(blob: [1, 2, 3], byteCount: 0, type: "text/html", width: 0, height: -1),
                            at: Point(0, 0)
                        ),
                    ]
                )
            ),
            (
                "an image whose type is not UTF-8 decodes as unknown",
                change(
                    bob,
                    7,
                    [
                        .unknown(
                            kind: 12,
                            bytes: Proto.bytes(
                                12,
                                Proto.bytes(1, [UInt8](repeating: 9, count: 32)) + Proto.bytes(3, [0x69, 0xFF])
                            )
                        )
                    ]
                )
            ),
            (
                "unreadable text operations decode as unknown",
                change(
                    bob,
                    5,
                    [
                        // Text that is not UTF-8.
                        .unknown(
                            kind: 10,
                            bytes: Proto.bytes(
                                10,
                                Proto.bytes(1, Proto.varint(2, 1)) + Proto.bytes(4, [0x61, 0xC3, 0x28])
                            )
                        ),
                        // An offset without a run to count it in.
                        .unknown(
                            kind: 10,
                            bytes: Proto.bytes(
                                10,
                                Proto.bytes(1, Proto.varint(2, 1)) + Proto.varint(3, 2) + Proto.bytes(4, [0x61])
                            )
                        ),
                        // No box.
                        .unknown(kind: 10, bytes: Proto.bytes(10, Proto.bytes(4, [0x61]))),
                        // A range that is empty.
                        .unknown(
                            kind: 11,
                            bytes: Proto.bytes(
                                11,
                                Proto.bytes(1, Proto.varint(2, 1))
                                    + Proto.bytes(
                                        2,
                                        Proto.bytes(1, Proto.varint(2, 1)) + Proto.varint(2, 3) + Proto.varint(3, 3)
                                    )
                            )
                        ),
                    ]
                )
            ),
            (
                "empty and single-point strokes",
                change(
                    bob,
                    2,
                    [
                        .addStroke(StrokeStyle(colour: .black, width: 0), points: [], pressures: nil),
                        .addStroke(StrokeStyle(colour: .black, width: 1), points: [Point(5, 5)], pressures: [1]),
                        .addStroke(StrokeStyle(colour: .black, width: 1), points: [Point(6, 6)], pressures: []),
                    ]
                )
            ),
            (
                "unicode board name, largest stamp and safe seq",
                change(
                    bob,
                    (1 << 53) - 1,
                    [.clear],
                    board: "p\u{E2}ge \u{270F}\u{FE0F}",
                    stamp: Stamp(wallMilliseconds: Stamp.maxWallMilliseconds, counter: .max)
                )
            ),
            (
                "unknown operation kinds are kept byte for byte",
                change(
                    bob,
                    3,
                    [
                        .clear, .unknown(kind: 42, bytes: [0xD2, 0x02, 0x03, 0x01, 0x02, 0x03]),
                        .unknown(kind: 0, bytes: []),
                    ]
                )
            ),
            (
                "points off the board decode as an unknown operation",
                change(
                    bob,
                    4,
                    [
                        .addStroke(pen, points: [Point(2e9, 0)], pressures: nil),
                        .addStroke(pen, points: [Point(0, 0), Point(0x1p50, -0x1p51)], pressures: nil),
                    ]
                )
            ),
            (
                "a pressure count that does not match decodes as an unknown operation",
                change(bob, 5, [.addStroke(pen, points: [Point(0, 0), Point(1, 1)], pressures: [0.5])])
            ),
            (
                "an undo carries only a seq: the target is the change's own replica",
                change(alice, 14, [.undo(ChangeID(replica: bob, seq: 1))])
            ),
        ]
        cases += randomChanges(seed: 7, count: 30).enumerated().map { ("random change \($0.offset)", $0.element) }

        var vectors: [[String: Any]] = []
        for (name, change) in cases {
            let bytes = ChangeCodec.encode(change)
            let decoded = try ChangeCodec.decode(bytes, as: BoardEdit.self)
            #expect(ChangeCodec.encode(decoded) == bytes, "\(name) re-encodes to the same bytes")
            vectors.append(["name": name, "json": WireJSON.change(decoded), "bytes": WireHex.encode(bytes)])
        }
        for (name, bytes) in handMadeChanges() {
            let decoded = try ChangeCodec.decode(bytes, as: BoardEdit.self)
            vectors.append([
                "name": name, "json": WireJSON.change(decoded), "bytes": WireHex.encode(bytes),
                "reencoded": WireHex.encode(ChangeCodec.encode(decoded)),
            ])
        }
        return vectors
    }

    /// Valid encodings that Swift never writes: each decodes, and re-encodes canonically.
    static func handMadeChanges() -> [(String, [UInt8])] {
        let base = ChangeCodec.encode(change(alice, 1, [.clear]))
        let replica = Proto.bytes(1, alice.bytes)
        let stamp = Proto.fixed64(3, Stamp(wallMilliseconds: 1_800_000_000_001).rawValue)
        let board = Proto.bytes(4, Array("main".utf8))
        let clear = Proto.bytes(7, [])
        let addStroke = Proto.bytes(
            1,
            Proto.fixed32(1, 0xFF) + Proto.double(2, 3)
                + Proto.bytes(3, Proto.varint(1, 1) + Proto.bytes(2, [0x02, 0x04, 0x00, 0x01]))
        )
        let splitAdd =
            Proto.bytes(1, Proto.fixed32(1, 0xFF))
            + Proto.bytes(1, Proto.double(2, 3) + Proto.bytes(3, Proto.varint(1, 2)))
            + Proto.bytes(1, Proto.bytes(3, Proto.bytes(2, [0x02, 0x04, 0x01, 0x01])))
        let unpacked = Proto.bytes(
            1,
            Proto.fixed32(1, 0xFF) + Proto.bytes(3, Proto.varint(1, 1) + [0x10, 0x02, 0x10, 0x04])
        )
        let group = Proto.tag(100, 3) + Proto.varint(1, 5) + Proto.tag(101, 3) + Proto.tag(101, 4) + Proto.tag(100, 4)
        return [
            (
                "unknown fields of every wire type are skipped",
                base + Proto.varint(99, 7) + Proto.bytes(98, [1, 2, 3]) + Proto.fixed32(97, 1) + Proto.fixed64(96, 2)
                    + group
            ),
            (
                "fields in any order; a repeated scalar keeps the last value",
                Proto.bytes(6, clear) + Proto.varint(2, 9) + board + stamp + Proto.varint(2, 2) + replica
            ),
            ("non-minimal varints", replica + [0x10, 0x81, 0x80, 0x00] + stamp + board + Proto.bytes(6, clear)),
            (
                "a known field with an unexpected wire type is skipped",
                replica + Proto.varint(2, 1) + stamp + Proto.varint(4, 5) + board + Proto.fixed32(2, 9)
                    + Proto.bytes(6, clear)
            ),
            (
                "a oneof keeps its last member",
                replica + Proto.varint(2, 1) + stamp + board + Proto.bytes(6, addStroke + clear)
                    + Proto.bytes(6, clear + addStroke)
            ),
            ("a message met twice is merged", replica + Proto.varint(2, 1) + stamp + board + Proto.bytes(6, splitAdd)),
            ("repeated numbers not packed", replica + Proto.varint(2, 1) + stamp + board + Proto.bytes(6, unpacked)),
            (
                "unknown fields inside an operation are dropped",
                replica + Proto.varint(2, 1) + stamp + board
                    + Proto.bytes(6, Proto.bytes(1, Proto.fixed32(1, 7) + Proto.varint(50, 1)) + Proto.varint(60, 1))
            ),
            (
                "an operation that does not parse is kept as unknown",
                replica + Proto.varint(2, 1) + stamp + board + Proto.bytes(6, [0x0A, 0x05, 0x0D])
                    + Proto.bytes(6, [0xFF, 0xFF]) + Proto.bytes(6, Proto.bytes(5, []))
                    + Proto.bytes(6, Proto.bytes(4, Proto.bytes(1, Proto.varint(2, 1))))
            ),
            ("schema version 0 is read as the current one", replica + Proto.varint(2, 1) + stamp + board),
            ("unknown groups nested 99 deep", base + Proto.nestedGroups(99)),
        ]
    }

    static func futureChanges() throws -> [[String: Any]] {
        var wire = try WireChange(serializedBytes: ChangeCodec.encode(change(alice, 3, [.clear])))
        wire.schemaVersion = 2
        wire.operations.append(Data([0xD2, 0x02, 0x00]))
        let bytes: [UInt8] = try wire.serializedBytes()
        return [
            [
                "name": "schema 2", "bytes": WireHex.encode(bytes), "schemaVersion": 2,
                "header": [
                    "id": WireJSON.id(ChangeID(replica: alice, seq: 3)),
                    "stamp": ["wall": 1_800_000_000_003, "counter": 3], "board": "main",
                ] as [String: Any],
            ]
        ]
    }

    /// A stand-alone `Points` message, as a presence frame carries in-progress ink; decoded as the
    /// operation codec decodes one.
    static func decodePoints(_ bytes: [UInt8]) throws(WireError) -> ([Point], [Float]?) {
        let wire: WirePoints
        do {
            wire = try WirePoints(serializedBytes: bytes)
        } catch {
            throw .malformed("points")
        }
        // The board's codec names the same faults the wire's vectors record.
        do {
            return try OperationCodec.decode(wire)
        } catch {
            switch error {
            case .malformed(let what): throw .malformed(what)
            case .invalidField(let field): throw .invalidField(field)
            case .tooLarge(let what): throw .tooLarge(what)
            }
        }
    }

    static func points() throws -> [[String: Any]] {
        let cases: [(String, [Point], [Float]?)] = [
            ("grid", wave, nil),
            ("raw", [Point(0.1, 0.2), Point(-1e-9, 7)], nil),
            ("pressure bytes", [Point(1, 1), Point(2, 3)], [InkGrid.snap(pressure: 0.4), 1]),
            ("raw pressures", [Point(1, 1), Point(2, 3)], [0.4, 1]),
            ("no points", [], nil),
        ]
        return try cases.map { name, points, pressures in
            let bytes: [UInt8] = try OperationCodec.encode(points, pressures).serializedBytes()
            let (decoded, decodedPressures) = try decodePoints(bytes)
            return ["name": name, "json": WireJSON.ink(decoded, decodedPressures), "bytes": WireHex.encode(bytes)]
        }
    }

    /// The key that signs the vectors' packs: a fixed seed, so the browser signs the same bytes.
    static let authorKey = try! AuthorKey(rawRepresentation: [UInt8](repeating: 0xA1, count: 32))
    /// Another signer, for packs that must be refused.
    static let otherKey = try! AuthorKey(rawRepresentation: [UInt8](repeating: 0xB2, count: 32))

    /// `changes` made again as `key`'s: a pack holds only its signer's changes.
    static func authored(_ changes: [BoardChange], by key: AuthorKey = authorKey) -> [BoardChange] {
        changes.enumerated().map { index, change in
            Change(
                id: ChangeID(replica: key.replica, seq: UInt64(index + 1)),
                stamp: change.stamp,
                payload: change.payload
            )
        }
    }

    static func packs() throws -> [[String: Any]] {
        let some = (1...6 as ClosedRange<UInt64>).map { seq in
            change(
                authorKey.replica,
                seq,
                [.addStroke(pen, points: wave.map { Point($0.x + Double(seq), $0.y) }, pressures: nil)]
            )
        }
        let many = authored(randomChanges(seed: 11, count: 120))
        func pack(_ room: String, _ changes: [BoardChange], schemaVersion: UInt32 = WireSchema.current) -> Pack {
            Pack(room: room, schemaVersion: schemaVersion, changes: changes.map(ChangeCodec.encode))
        }
        let cases: [(String, Pack, PackCodec.Compression, UInt32)] = [
            ("deflate", pack("room-a", some), .deflate, WireSchema.current),
            ("no compression", pack("room-a", some), .none, WireSchema.current),
            ("empty", pack("room-a", []), .deflate, WireSchema.current),
            ("empty, no compression", pack("room-a", []), .none, WireSchema.current),
            ("many changes", pack("room-c", many), .deflate, WireSchema.current),
            ("newer schema, read by code that knows it", pack("room-a", some, schemaVersion: 2), .deflate, 2),
        ]
        return try cases.map { name, pack, compression, understanding in
            let bytes = PackCodec.encode(pack, signedBy: authorKey, compression: compression)
            let decoded = try PackCodec.decode(bytes, room: pack.room, understanding: understanding)
            var vector: [String: Any] = [
                "name": name, "bytes": WireHex.encode(bytes), "id": WireHex.encode(decoded.id.bytes),
                "schemaVersion": decoded.schemaVersion, "room": decoded.room,
                "seed": WireHex.encode(authorKey.rawRepresentation), "author": WireHex.encode(authorKey.publicKey),
                "replica": authorKey.replica.description,
                "compression": compression == .none ? "none" : "deflate",
                "changes": decoded.changes.map(WireHex.encode),
            ]
            if understanding != WireSchema.current { vector["understanding"] = understanding }
            return vector
        }
    }

    /// Packs every reader refuses, each with the room it is read for and Swift's error: a signature that
    /// does not hold, a change of another replica, a pack replayed into another room, and broken envelopes.
    static func refusedPacks() throws -> [[String: Any]] {
        let own = authored([change(alice, 1, [.erase(StrokeID(change: ChangeID(replica: bob, seq: 1), index: 0), [])])])
        let foreign = change(otherKey.replica, 1, [.clear])
        let honest = PackCodec.encode(Pack(room: "room-a", changes: own.map(ChangeCodec.encode)), signedBy: authorKey)
        var tampered = honest
        tampered[tampered.count / 3] ^= 0x01
        var badSignature = honest
        badSignature[badSignature.count - 1] ^= 0x80
        let mixed = PackCodec.encode(
            Pack(room: "room-a", changes: (own + [foreign]).map(ChangeCodec.encode)),
            signedBy: authorKey
        )
        let unsigned = Array(honest.dropLast(66))
        let truncated = Array(honest.dropLast(1))
        // The signature field first, then the rest: still the same fields, but not where a signature must be.
        let signatureFirst = Array(honest.suffix(66)) + unsigned
        var otherAuthor = try WirePack(serializedBytes: honest)
        otherAuthor.author = Data(otherKey.publicKey)
        let cases: [(String, [UInt8], String)] = [
            ("a flipped byte", tampered, "room-a"),
            ("a flipped signature bit", badSignature, "room-a"),
            ("another replica's change mixed in", mixed, "room-a"),
            ("replayed into another room", honest, "room-b"),
            ("no signature", unsigned, "room-a"),
            ("a truncated signature", truncated, "room-a"),
            ("the signature not last", signatureFirst, "room-a"),
            ("another author's key", try otherAuthor.serializedBytes(), "room-a"),
        ]
        return cases.map { name, bytes, room in
            ["name": name, "bytes": WireHex.encode(bytes), "room": room, "error": refusal(bytes, room: room)]
        }
    }

    /// Why `bytes` are refused when read for `room`, or "accepted".
    static func refusal(_ bytes: [UInt8], room: String) -> String {
        do {
            _ = try PackCodec.decode(bytes, room: room)
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    static func frames() -> [[String: Any]] {
        let device = alice
        let ink = (
            board: "main", colour: UInt32(0x2040_60FF), width: 3.5,
            points: [UInt8]([0x08, 0x08, 0x12, 0x02, 0x02, 0x04])
        )
        let client: [(String, ClientMessage)] = [
            (
                "hello",
                .hello(protocolVersion: 1, minimumProtocolVersion: 1, device: device, agent: "inkwell-web/0.1 \u{270D}")
            ),
            ("hello from the future", .hello(protocolVersion: 7, minimumProtocolVersion: 2, device: device, agent: "")),
            ("subscribe from the start", .subscribe(room: "room-a", after: 0, capability: "")),
            ("subscribe after a position", .subscribe(room: "Room_1.b-c", after: (1 << 53) - 1, capability: "")),
            (
                "subscribe with a capability",
                .subscribe(
                    room: "Kq3Zt0aLw9PxYbN2mR7sVc",
                    after: 5,
                    capability: "v" + String(repeating: "Ab-_", count: 10) + "AbA"
                )
            ),
            (
                "create a room",
                .createRoom(
                    room: "Kq3Zt0aLw9PxYbN2mR7sVc",
                    adminHash: Array(repeating: 1, count: 32),
                    editHash: Array(repeating: 2, count: 32),
                    viewHash: Array(repeating: 3, count: 32)
                )
            ),
            (
                "rotate the view capability",
                .rotateCapability(
                    room: "Kq3Zt0aLw9PxYbN2mR7sVc",
                    admin: "a" + String(repeating: "Zz09", count: 10) + "Zz0",
                    editHash: [],
                    viewHash: Array(repeating: 4, count: 32)
                )
            ),
            (
                "sealed presence",
                .presence(Presence(room: "room-a", device: device, name: "", colour: 0, sealed: [9, 8, 7, 6, 5]))
            ),
            ("unsubscribe", .unsubscribe(room: "room-a")),
            (
                "push",
                .push(room: "room-a", pack: PackCodec.encode(Pack(room: "room-a", changes: []), signedBy: authorKey))
            ),
            (
                "presence without cursor or ink",
                .presence(Presence(room: "room-a", device: device, name: "", colour: 0))
            ),
            (
                "snapshot checked",
                .snapshotChecked(
                    SnapshotCheck(room: "room-a", snapshot: SnapshotID(bytes: Array(1...16))!, signedBy: authorKey)
                )
            ),
            (
                "presence with a cursor",
                .presence(
                    Presence(room: "room-a", device: device, name: "Alice", colour: 0xFF00_00FF, cursor: (0, -12.5))
                )
            ),
            (
                "presence with ink in progress",
                .presence(
                    Presence(room: "room-a", device: device, name: "Al\u{EF}ce", colour: 1, cursor: nil, ink: ink)
                )
            ),
            (
                "presence with a cursor and empty ink",
                .presence(
                    Presence(
                        room: "r",
                        device: device,
                        name: "A",
                        colour: 2,
                        cursor: (1e6, 3),
                        ink: (board: "", colour: 0, width: 0, points: [])
                    )
                )
            ),
        ]
        let stored = [
            StoredPack(
                serverSeq: 1,
                bytes: PackCodec.encode(Pack(room: "room-a", changes: []), signedBy: authorKey)
            ),
            StoredPack(serverSeq: 2, bytes: [0x0A, 0x10] + Array(repeating: 7, count: 16)),
        ]
        let server: [(String, ServerMessage)] = [
            (
                "welcome",
                .welcome(protocolVersion: 2, server: bob, maximumFrameBytes: 68_157_440, serverTime: 1_795_000_000_123)
            ),
            ("welcome without limits", .welcome(protocolVersion: 2, server: bob, maximumFrameBytes: 0, serverTime: 0)),
            (
                "ack",
                .ack(
                    room: "room-a",
                    pack: PackID(bytes: (1...32).map { UInt8($0) })!,
                    serverSeq: 42
                )
            ),
            ("packs", .packs(room: "room-a", packs: stored, head: 2)),
            ("packs, none left", .packs(room: "room-a", packs: [], head: 0)),
            ("rebase on a snapshot", .rebase(room: "room-a", parts: stored, position: 7, head: 9)),
            (
                "presence",
                .presence(Presence(room: "room-a", device: bob, name: "Bob", colour: 3, cursor: (5, 6), ink: ink))
            ),
            (
                "several members' presence",
                .presences([
                    Presence(room: "room-a", device: bob, name: "Bob", colour: 3, cursor: (5, 6)),
                    Presence(room: "room-b", device: alice, name: "Alice", colour: 4, cursor: nil, ink: ink),
                ])
            ),
            ("progress", .progress(room: "room-a", head: 1_000, bytesBehind: 123_456_789, packsBehind: 17)),
            ("progress when synced", .progress(room: "room-a", head: 9, bytesBehind: 0, packsBehind: 0)),
            (
                "fatal error",
                .error(
                    code: 3,
                    message: "protocol version 7 is not supported \u{2014} please update",
                    fatal: true,
                    room: ""
                )
            ),
            ("error for a room", .error(code: 404, message: "no such room", fatal: false, room: "room-a")),
            ("view access", .access(room: "room-a", rights: .view, guarded: true)),
            ("edit access to an open room", .access(room: "room-a", rights: .edit, guarded: false)),
            ("admin access", .access(room: "room-a", rights: .admin, guarded: true)),
        ]
        return client.map { name, message in
            [
                "name": name, "direction": "client", "json": WireJSON.frame(message),
                "bytes": WireHex.encode(SyncCodec.encode(message)),
            ]
        }
            + server.map { name, message in
                [
                    "name": name, "direction": "server", "json": WireJSON.frame(message),
                    "bytes": WireHex.encode(SyncCodec.encode(message)),
                ]
            }
    }

    /// Inputs every decoder must refuse, with the error Swift reports.
    static func invalid() throws -> [[String: Any]] {
        let replica = Proto.bytes(1, alice.bytes)
        let seq = Proto.varint(2, 1)
        let stamp = Proto.fixed64(3, 1 << 20)
        let board = Proto.bytes(4, Array("main".utf8))
        let good = replica + seq + stamp + board
        var future = try WireChange(serializedBytes: good)
        future.schemaVersion = 9
        let deep = Proto.nestedGroups(100)
        let changes: [(String, [UInt8])] = [
            ("empty bytes", []),
            ("truncated", Array(good.dropLast(2))),
            ("garbage", [0xFF, 0xFF, 0xFF, 0xFF]),
            ("field number 0", good + [0x00, 0x01]),
            ("wire type 6", good + [0x0E]),
            ("wire type 7", good + [0x0F]),
            ("an end group without a start", good + Proto.tag(9, 4)),
            ("a group closed by another field's end", good + Proto.tag(9, 3) + Proto.tag(8, 4)),
            ("a group never closed", good + Proto.tag(9, 3) + Proto.varint(1, 1)),
            ("unknown groups nested 100 deep", good + deep),
            ("an 11-byte varint", replica + [0x10] + Array(repeating: 0x80, count: 10) + [0x01] + stamp + board),
            ("a length past the end", good + [0x32, 0x05, 0x00]),
            ("a tag of six bytes", good + [0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
            ("invalid UTF-8 in the board name", replica + seq + stamp + Proto.bytes(4, [0x6D, 0xC3, 0x28])),
            ("a replica of 15 bytes", Proto.bytes(1, Array(alice.bytes.dropLast())) + seq + stamp + board),
            ("seq 0", replica + stamp + board),
            ("no board", replica + seq + stamp),
            ("a board name of 257 bytes", replica + seq + stamp + Proto.bytes(4, Array(repeating: 0x62, count: 257))),
            ("a newer schema", try future.serializedBytes()),
            (
                "more than 10,000 operations",
                good
                    + Array(repeating: Proto.bytes(6, []), count: WireLimits.maximumOperationsPerChange + 1).flatMap {
                        $0
                    }
            ),
        ]
        var vectors = changes.map { name, bytes in
            verdict("change", name, bytes) { () throws(WireError) in
                _ = try ChangeCodec.decode(bytes, as: BoardEdit.self)
            }
        }

        let body: [UInt8] = try WirePackBody.with {
            $0.entries = [
                WirePackEntry.with {
                    $0.room = "room-a"
                    $0.change = Data(good)
                }
            ]
        }.serializedBytes()
        let powerOfTwo = Array(body.prefix(32))
        let packs: [(String, [UInt8])] = [
            ("garbage", [0x0A, 0xFF]),
            (
                "an author key of 31 bytes",
                Handmade.pack(body: body, size: body.count, compression: .none, author: Array(repeating: 1, count: 31))
            ),
            ("a newer schema", Handmade.pack(body: body, size: body.count, compression: .none, schemaVersion: 2)),
            ("encrypted", Handmade.pack(body: body, size: body.count, compression: .none, encrypted: true)),
            ("an unknown compression", Handmade.pack(body: body, size: body.count, compression: .UNRECOGNIZED(7))),
            ("a plain body of another size", Handmade.pack(body: body, size: body.count + 1, compression: .none)),
            ("a declared size over 64 MiB", Handmade.pack(body: body, size: (64 << 20) + 1)),
            ("corrupt deflate", Handmade.pack(body: [0xFF, 0xFF, 0xFF], size: body.count)),
            ("an empty deflate stream", Handmade.pack(body: [], size: 0)),
            ("deflate bigger than declared", Handmade.pack(body: Handmade.storedBlock(body), size: body.count - 3)),
            ("deflate much bigger than declared", Handmade.pack(body: Handmade.storedBlock(body), size: 8)),
            ("deflate smaller than declared", Handmade.pack(body: Handmade.storedBlock(body), size: body.count + 1)),
            ("deflate with trailing bytes", Handmade.pack(body: Handmade.storedBlock(body) + [0], size: body.count)),
            (
                "a truncated deflate stream",
                Handmade.pack(body: Array(Handmade.storedBlock(body).dropLast(4)), size: body.count)
            ),
            (
                "a deflate stream without its final block, at its declared size",
                Handmade.pack(body: Handmade.storedBlock(body, final: false), size: body.count)
            ),
            (
                "a deflate stream without its final block, filling a power-of-two size",
                Handmade.pack(body: Handmade.storedBlock(powerOfTwo, final: false), size: powerOfTwo.count)
            ),
            ("a body that is not a pack body", Handmade.pack(body: Handmade.storedBlock([0xFF]), size: 1)),
            (
                "an entry of another room",
                Handmade.pack(
                    body: Proto.bytes(1, Proto.bytes(1, Array("room-b".utf8)) + Proto.bytes(2, good)),
                    size: Proto.bytes(1, Proto.bytes(1, Array("room-b".utf8)) + Proto.bytes(2, good)).count,
                    compression: .none
                )
            ),
        ]
        vectors += packs.map { name, bytes in
            verdict("pack", name, bytes) { () throws(WireError) in _ = try PackCodec.decode(bytes) }
        }

        let device = Proto.bytes(2, alice.bytes)
        let room = Proto.bytes(1, Array("room-a".utf8))
        let clientFrames: [(String, [UInt8])] = [
            ("empty bytes", []),
            ("garbage", [0x0A, 0x05, 0x01]),
            ("a hello with a device of 15 bytes", Proto.bytes(1, Proto.bytes(3, Array(alice.bytes.dropFirst())))),
            (
                "a hello with an agent of 257 bytes",
                Proto.bytes(1, Proto.bytes(3, alice.bytes) + Proto.bytes(4, Array(repeating: 0x61, count: 257)))
            ),
            ("a subscribe to an invalid room", Proto.bytes(2, Proto.bytes(1, Array("a b".utf8)))),
            ("a subscribe to no room", Proto.bytes(2, Proto.varint(2, 5))),
            ("a subscribe to a room of 129 bytes", Proto.bytes(2, Proto.bytes(1, Array(repeating: 0x61, count: 129)))),
            ("a push without a pack", Proto.bytes(4, room)),
            ("a push without a pack to an invalid room", Proto.bytes(4, Proto.bytes(1, Array("/".utf8)))),
            ("a presence without a device", Proto.bytes(5, room)),
            (
                "a presence with an infinite cursor",
                Proto.bytes(5, room + device + Proto.double(5, .infinity) + Proto.varint(7, 1))
            ),
            (
                "a presence with a name of 257 bytes",
                Proto.bytes(5, room + device + Proto.bytes(3, Array(repeating: 0x61, count: 257)))
            ),
            (
                "a presence with too much ink",
                Proto.bytes(
                    5,
                    room + device + Proto.bytes(9, Proto.bytes(3, Array(repeating: 0, count: (64 << 10) + 1)))
                )
            ),
        ]
        vectors += clientFrames.map { name, bytes in
            verdict("clientFrame", name, bytes) { () throws(WireError) in _ = try SyncCodec.decodeClient(bytes) }
        }
        let serverFrames: [(String, [UInt8])] = [
            ("empty bytes", []),
            ("a frame truncated inside a field", [0x12, 0x03, 0x0A]),
            ("a welcome with a server id of 17 bytes", Proto.bytes(1, Proto.bytes(2, alice.bytes + [0]))),
            ("an ack with a pack id of 15 bytes", Proto.bytes(2, room + Proto.bytes(2, Array(alice.bytes.dropLast())))),
            (
                "an ack to an invalid room",
                Proto.bytes(2, Proto.bytes(1, Array("x y".utf8)) + Proto.bytes(2, alice.bytes))
            ),
            ("packs for no room", Proto.bytes(3, Proto.varint(3, 4))),
            ("progress for an invalid room", Proto.bytes(5, Proto.bytes(1, Array("..?".utf8)))),
            ("an error message of 4,097 bytes", Proto.bytes(6, Proto.bytes(2, Array(repeating: 0x61, count: 4_097)))),
            (
                "a presence with a NaN cursor",
                Proto.bytes(4, room + device + Proto.double(6, .nan) + Proto.varint(7, 1))
            ),
            ("an empty presence batch", Proto.bytes(7, [])),
            (
                "a presence batch with an invalid member",
                Proto.bytes(7, Proto.bytes(1, room + device) + Proto.bytes(1, Proto.bytes(1, Array("?".utf8)) + device))
            ),
        ]
        vectors += serverFrames.map { name, bytes in
            verdict("serverFrame", name, bytes) { () throws(WireError) in _ = try SyncCodec.decodeServer(bytes) }
        }

        let points: [(String, WirePoints)] = [
            (
                "a scale that is not a power of two",
                .with {
                    $0.scale = 3
                    $0.residuals = [1, 2]
                }
            ),
            (
                "a scale finer than 1/1024",
                .with {
                    $0.scale = 2_048
                    $0.residuals = [1, 2]
                }
            ),
            (
                "an odd number of residuals",
                .with {
                    $0.scale = 1
                    $0.residuals = [1, 2, 3]
                }
            ),
            ("an odd number of raw values", .with { $0.raw = [1, 2, 3] }),
            (
                "a first point off the board",
                .with {
                    $0.scale = 1
                    $0.residuals = [1_000_000_001, 0]
                }
            ),
            (
                "a later point off the board",
                .with {
                    $0.scale = 2
                    $0.residuals = [0, 0, 0, 2_000_000_001]
                }
            ),
            (
                "residuals that overflow",
                .with {
                    $0.scale = 1
                    $0.residuals = [1_000_000_000, 0, .max, 0]
                }
            ),
            (
                "residuals that underflow",
                .with {
                    $0.scale = 1
                    $0.residuals = [-1_000_000_000, 0, 0, 0, .min, 0]
                }
            ),
            (
                "fewer pressures than points",
                .with {
                    $0.scale = 1
                    $0.residuals = [1, 2, 3, 4]
                    $0.pressures = Data([1])
                }
            ),
            (
                "more raw pressures than points",
                .with {
                    $0.scale = 1
                    $0.residuals = [1, 2]
                    $0.rawPressures = [0.5, 0.5]
                }
            ),
        ]
        vectors += try points.map { name, wire in
            let bytes: [UInt8] = try wire.serializedBytes()
            return verdict("points", name, bytes) { () throws(WireError) in _ = try decodePoints(bytes) }
        }
        vectors.append(
            verdict("points", "garbage", [0x12, 0x09]) { () throws(WireError) in _ = try decodePoints([0x12, 0x09]) }
        )
        return vectors
    }

    static func verdict(
        _ kind: String,
        _ name: String,
        _ bytes: [UInt8],
        _ decode: () throws(WireError) -> Void
    ) -> [String: Any] {
        var vector: [String: Any] = ["kind": kind, "name": name]
        if bytes.count > 2_048 {
            vector["pieces"] = WireHex.pieces(bytes)
        } else {
            vector["bytes"] = WireHex.encode(bytes)
        }
        do {
            try decode()
            Issue.record("\(kind) \(name) should not decode")
        } catch {
            vector["error"] = error.description
        }
        return vector
    }

    /// Seeded mutations of real bytes, with Swift's verdict: the browser must reach the same one.
    static func differential() throws -> [[String: Any]] {
        var generator = SplitMix64(seed: 20_240_601)
        func below(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        let changeSeeds = [
            change(alice, 1, [.addStroke(pen, points: Array(wave.prefix(4)), pressures: [0, 0.5, 1, 1])]),
            change(alice, 2, [.appendPoints(foreign, points: [Point(0.1, 2)], pressures: [0.3])]),
            change(
                alice,
                3,
                [
                    .erase(own, [ParameterInterval(1, 2)]), .set(foreign, .width(2)),
                    .undo(ChangeID(replica: alice, seq: 1)),
                ]
            ),
            change(bob, 4, [.set(own, .transform(.identity)), .clear, .redo(ChangeID(replica: bob, seq: 2))]),
        ].map(ChangeCodec.encode)
        let signed = authored(randomChanges(seed: 12, count: 4)).map(ChangeCodec.encode)
        let packSeeds = [
            PackCodec.encode(Pack(room: "room-a", changes: signed), signedBy: authorKey),
            PackCodec.encode(Pack(room: "r", changes: [signed[2]]), signedBy: authorKey, compression: .none),
        ]
        let frameSeeds = frames().compactMap { vector -> (String, [UInt8])? in
            guard let bytes = try? WireHex.decode(vector["bytes"]), bytes.count < 200 else { return nil }
            return (vector["direction"] as? String ?? "", bytes)
        }
        let pointSeeds =
            try [
                OperationCodec.encode(Array(wave.prefix(5)), [0.25, 0.5, 0.75, 1, 0]).serializedBytes(),
                OperationCodec.encode([Point(0.1, 0.3), Point(5, 5)], nil).serializedBytes(),
            ] as [[UInt8]]

        func mutate(_ seed: [UInt8]) -> [UInt8] {
            var bytes = seed
            switch below(5) {
            case 0:
                return (0..<below(24)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            case 1:
                return Array(bytes.prefix(below(bytes.count + 1)))
            default:
                for _ in 0..<(1 + below(3)) where !bytes.isEmpty {
                    let index = below(bytes.count)
                    switch below(4) {
                    case 0: bytes[index] = UInt8(truncatingIfNeeded: generator.next())
                    case 1: bytes[index] ^= 1 << UInt8(below(8))
                    case 2: bytes.remove(at: index)
                    default: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: index)
                    }
                }
                return bytes
            }
        }

        var vectors: [[String: Any]] = []
        func record(_ kind: String, _ bytes: [UInt8], _ decode: () throws(WireError) -> Any) {
            var vector: [String: Any] = ["kind": kind, "bytes": WireHex.encode(bytes)]
            do {
                vector["decoded"] = try decode()
            } catch {
                vector["error"] = error.description
            }
            vectors.append(vector)
        }
        for _ in 0..<120 {
            let bytes = mutate(changeSeeds[below(changeSeeds.count)])
            record("change", bytes) { () throws(WireError) in
                WireHex.encode(ChangeCodec.encode(try ChangeCodec.decode(bytes, as: BoardEdit.self)))
            }
        }
        for _ in 0..<80 {
            let bytes = mutate(packSeeds[below(packSeeds.count)])
            record("pack", bytes) { () throws(WireError) in
                let pack = try PackCodec.decode(bytes)
                return [
                    "id": WireHex.encode(pack.id.bytes), "schemaVersion": pack.schemaVersion, "room": pack.room,
                    "changes": pack.changes.map(WireHex.encode),
                ] as [String: Any]
            }
        }
        for _ in 0..<120 {
            let (direction, seed) = frameSeeds[below(frameSeeds.count)]
            let bytes = mutate(seed)
            if direction == "client" {
                record("clientFrame", bytes) { () throws(WireError) in
                    WireHex.encode(SyncCodec.encode(try SyncCodec.decodeClient(bytes)))
                }
            } else {
                record("serverFrame", bytes) { () throws(WireError) in
                    WireHex.encode(SyncCodec.encode(try SyncCodec.decodeServer(bytes)))
                }
            }
        }
        for _ in 0..<60 {
            let bytes = mutate(pointSeeds[below(pointSeeds.count)])
            record("points", bytes) { () throws(WireError) in
                let (points, pressures) = try decodePoints(bytes)
                let again: [UInt8] = try! OperationCodec.encode(points, pressures).serializedBytes()
                return WireHex.encode(again)
            }
        }
        return vectors
    }

    /// Changes with every operation kind, on and off the grid, from a fixed seed.
    static func randomChanges(seed: UInt64, count: Int) -> [BoardChange] {
        var generator = SplitMix64(seed: seed)
        func below(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        func coordinate() -> Double {
            switch below(3) {
            case 0: Double(below(4_000)) / 8 - 250
            case 1: Double(below(1 << 20)) / 1_024
            default: Double(below(1_000_000)) / 997
            }
        }
        func points() -> [Point] { (0..<below(12)).map { _ in Point(coordinate(), coordinate()) } }
        func pressures(_ count: Int) -> [Float]? {
            switch below(3) {
            case 0: nil
            case 1: (0..<count).map { _ in Float(below(256)) / 255 }
            default: (0..<count).map { _ in Float(below(1_000)) / 999 }
            }
        }
        let replicas = [alice, bob]
        return (1...count).map { seq in
            let replica = replicas[below(2)]
            let stroke = StrokeID(
                change: ChangeID(replica: replicas[below(2)], seq: UInt64(1 + below(50))),
                index: UInt32(below(3))
            )
            let operations: [BoardOperation] = (0..<(1 + below(3))).map { _ in
                switch below(9) {
                case 0:
                    let drawn = points()
                    return .addStroke(
                        StrokeStyle(
                            colour: Colour(rgba: UInt32(truncatingIfNeeded: generator.next())),
                            width: Double(1 + below(40)) / 4
                        ),
                        points: drawn,
                        pressures: pressures(drawn.count)
                    )
                case 1:
                    let drawn = points()
                    return .appendPoints(stroke, points: drawn, pressures: pressures(drawn.count))
                case 2:
                    return .erase(
                        stroke,
                        (0..<below(3)).map { _ in ParameterInterval(Double(below(80)) / 8, Double(below(80)) / 8) }
                    )
                case 3: return .set(stroke, .colour(Colour(rgba: UInt32(truncatingIfNeeded: generator.next()))))
                case 4:
                    return .set(
                        stroke,
                        [.width(Double(below(100)) / 3), .zOrder(Double(below(100)) - 50), .deleted(below(2) == 0)][
                            below(3)
                        ]
                    )
                case 5:
                    return .set(
                        stroke,
                        .transform(Transform(a: 1, b: 0, c: 0, d: 1, tx: coordinate(), ty: coordinate()))
                    )
                case 6: return .undo(ChangeID(replica: replica, seq: UInt64(1 + below(seq))))
                case 7: return .redo(ChangeID(replica: replica, seq: UInt64(1 + below(seq))))
                default: return .clear
                }
            }
            return change(replica, UInt64(seq), operations, board: below(4) == 0 ? "page-2" : "main")
        }
    }
}

/// Protobuf fields by hand, for bytes Swift's encoder never writes.
enum Proto {
    static func encodeVarint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    static func tag(_ field: UInt64, _ wireType: UInt64) -> [UInt8] { encodeVarint(field << 3 | wireType) }
    static func varint(_ field: UInt64, _ value: UInt64) -> [UInt8] { tag(field, 0) + encodeVarint(value) }
    static func bytes(_ field: UInt64, _ value: [UInt8]) -> [UInt8] {
        tag(field, 2) + encodeVarint(UInt64(value.count)) + value
    }
    static func fixed32(_ field: UInt64, _ value: UInt32) -> [UInt8] {
        tag(field, 5) + (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
    static func fixed64(_ field: UInt64, _ value: UInt64) -> [UInt8] {
        tag(field, 1) + (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
    static func double(_ field: UInt64, _ value: Double) -> [UInt8] { fixed64(field, value.bitPattern) }

    /// `depth` unknown groups, each inside the last: swift-protobuf allows 100 levels of nesting in all.
    static func nestedGroups(_ depth: Int) -> [UInt8] {
        (0..<depth).reduce(into: [UInt8]()) { groups, level in
            groups = tag(UInt64(200 + level), 3) + groups + tag(UInt64(200 + level), 4)
        }
    }
}

/// Pack envelopes and deflate streams by hand: signed by ``WireVectors/authorKey`` for room-a, so that
/// readers get past the signature to what is wrong inside (with `author`, that key is claimed instead).
enum Handmade {
    static func pack(
        body: [UInt8],
        size: Int,
        compression: WireCompression = .deflate,
        schemaVersion: UInt32 = 1,
        encrypted: Bool = false,
        author: [UInt8]? = nil
    ) -> [UInt8] {
        var wire = WirePack()
        wire.schemaVersion = schemaVersion
        wire.compression = compression
        wire.body = Data(body)
        wire.bodySize = UInt32(size)
        wire.room = "room-a"
        wire.author = Data(author ?? WireVectors.authorKey.publicKey)
        if encrypted { wire.encryption.scheme = "xchacha20poly1305" }
        let unsigned: [UInt8] = try! wire.serializedBytes()
        return unsigned + PackCodec.signatureKey + WireVectors.authorKey.sign(PackCodec.signingInput(unsigned[...]))
    }

    /// One stored (uncompressed) deflate block.
    static func storedBlock(_ bytes: [UInt8], final: Bool = true) -> [UInt8] {
        let length = UInt16(bytes.count)
        return [final ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            + bytes
    }
}

enum WireHex {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Long inputs as runs: `[hex, count]` pairs, each hex repeated `count` times, so that a 64 KiB
    /// payload of zeros stays a line in the file.
    static func pieces(_ bytes: [UInt8]) -> [[Any]] {
        var pieces: [[Any]] = []
        var literal: [UInt8] = []
        var index = 0
        while index < bytes.count {
            var best: (unit: Int, count: Int) = (0, 0)
            for unit in 1...2 where index + unit <= bytes.count {
                let pattern = bytes[index..<index + unit]
                var count = 1
                while index + (count + 1) * unit <= bytes.count,
                    bytes[(index + count * unit)..<(index + (count + 1) * unit)] == pattern
                {
                    count += 1
                }
                if count * unit >= 64, count * unit > best.unit * best.count { best = (unit, count) }
            }
            if best.count == 0 {
                literal.append(bytes[index])
                index += 1
                continue
            }
            if !literal.isEmpty { pieces.append([encode(literal), 1]) }
            literal = []
            pieces.append([encode(bytes[index..<index + best.unit]), best.count])
            index += best.unit * best.count
        }
        if !literal.isEmpty { pieces.append([encode(literal), 1]) }
        return pieces
    }

    static func decode(_ value: Any?) throws -> [UInt8] {
        let text = try #require(value as? String)
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(try #require(UInt8(text[index..<next], radix: 16)))
            index = next
        }
        return bytes
    }
}

/// The JSON shapes of `Web/js/wire`: changes as in board.json, frames as sync.proto in lowerCamelCase.
enum WireJSON {
    static func same(_ lhs: Any, _ rhs: Any?) -> Bool {
        guard let rhs, let left = try? canonical(lhs), let right = try? canonical(rhs) else { return false }
        return left == right
    }

    static func canonical(_ object: Any) throws -> String {
        String(
            decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]),
            as: UTF8.self
        )
    }

    static func id(_ id: ChangeID) -> [String: Any] { ["replica": id.replica.description, "seq": id.seq] }

    static func changeID(_ json: [String: Any]) throws -> ChangeID {
        let hex = try #require(json["replica"] as? String)
        let replica = try #require(ReplicaID(hex: hex))
        let seq = try #require(json["seq"] as? NSNumber).uint64Value
        return ChangeID(replica: replica, seq: seq)
    }

    static func change(_ change: BoardChange) -> [String: Any] {
        [
            "id": id(change.id),
            "stamp": ["wall": change.stamp.wallMilliseconds, "counter": Int(change.stamp.counter)],
            "board": change.payload.board.rawValue,
            "operations": change.payload.operations.map(operation),
        ]
    }

    static func points(_ points: [Point]) -> [[Double]] { points.map { [$0.x, $0.y] } }

    static func pressures(_ pressures: [Float]?) -> Any { pressures.map { $0.map(Double.init) } as Any? ?? NSNull() }

    static func ink(_ points: [Point], _ pressures: [Float]?) -> [String: Any] {
        ["points": Self.points(points), "pressures": Self.pressures(pressures)]
    }

    static func operation(_ operation: BoardOperation) -> [String: Any] { OperationJSON.operation(operation) }

    static func frame(_ message: ClientMessage) -> [String: Any] {
        switch message {
        case .hello(let version, let minimum, let device, let agent):
            [
                "type": "hello", "protocolVersion": version, "minimumProtocolVersion": minimum,
                "device": WireHex.encode(device.bytes), "agent": agent,
            ]
        case .subscribe(let room, let after, let capability):
            capability.isEmpty
                ? ["type": "subscribe", "room": room, "after": after]
                : ["type": "subscribe", "room": room, "after": after, "capability": capability]
        case .createRoom(let room, let admin, let edit, let view):
            [
                "type": "createRoom", "room": room, "adminHash": WireHex.encode(admin),
                "editHash": WireHex.encode(edit), "viewHash": WireHex.encode(view),
            ]
        case .rotateCapability(let room, let admin, let edit, let view):
            [
                "type": "rotateCapability", "room": room, "adminCapability": admin,
                "editHash": WireHex.encode(edit), "viewHash": WireHex.encode(view),
            ]
        case .unsubscribe(let room): ["type": "unsubscribe", "room": room]
        case .push(let room, let pack): ["type": "push", "room": room, "pack": WireHex.encode(pack)]
        case .presence(let presence): self.presence(presence)
        case .snapshotChecked(let check):
            [
                "type": "snapshotChecked", "room": check.room, "snapshot": WireHex.encode(check.snapshot.bytes),
                "author": WireHex.encode(check.author), "signature": WireHex.encode(check.signature),
            ]
        }
    }

    static func frame(_ message: ServerMessage) -> [String: Any] {
        switch message {
        case .welcome(let version, let server, let maximumFrameBytes, let serverTime):
            [
                "type": "welcome", "protocolVersion": version, "server": WireHex.encode(server.bytes),
                "limits": ["maxFrameBytes": maximumFrameBytes, "maxMessageBytes": 0, "maxPackBodyBytes": 0],
                "serverTime": serverTime,
            ]
        case .ack(let room, let pack, let serverSeq):
            ["type": "ack", "room": room, "packId": WireHex.encode(pack.bytes), "serverSeq": serverSeq]
        case .packs(let room, let packs, let head):
            [
                "type": "packs", "room": room, "head": head,
                "packs": packs.map { ["serverSeq": $0.serverSeq, "pack": WireHex.encode($0.bytes)] },
            ]
        case .rebase(let room, let parts, let position, let head):
            [
                "type": "packs", "room": room, "head": head, "rebase": position,
                "packs": parts.map { ["serverSeq": $0.serverSeq, "pack": WireHex.encode($0.bytes)] },
            ]
        case .presence(let presence): self.presence(presence)
        case .presences(let presences): ["type": "presences", "presences": presences.map(self.presence)]
        case .progress(let room, let head, let bytesBehind, let packsBehind):
            [
                "type": "progress", "room": room, "head": head, "bytesBehind": bytesBehind,
                "packsBehind": packsBehind,
            ]
        case .error(let code, let message, let fatal, let room):
            ["type": "error", "code": code, "message": message, "fatal": fatal, "room": room]
        case .access(let room, let rights, let guarded):
            ["type": "access", "room": room, "rights": Int(rights.rawValue), "guarded": guarded]
        }
    }

    static func presence(_ presence: Presence) -> [String: Any] {
        var json = unsealedPresence(presence)
        if !presence.sealed.isEmpty { json["sealed"] = WireHex.encode(presence.sealed) }
        return json
    }

    static func unsealedPresence(_ presence: Presence) -> [String: Any] {
        [
            "type": "presence", "room": presence.room, "device": WireHex.encode(presence.device.bytes),
            "name": presence.name, "colour": presence.colour, "cursorX": presence.cursor?.x ?? 0,
            "cursorY": presence.cursor?.y ?? 0, "hasCursor": presence.cursor != nil, "board": presence.ink?.board ?? "",
            "ink": presence.ink.map {
                ["colour": $0.colour, "width": $0.width, "points": WireHex.encode($0.points)] as [String: Any]
            } as Any? ?? NSNull(),
        ]
    }
}
