import Foundation
import InkwellBoard
import InkwellFuzzing
import InkwellSync
import InkwellTesting
import Testing

@testable import InkwellWire

/// The fuzzers' seed corpus (`Fuzz/Corpus/<target>/`): the conformance vectors' bytes and snapshots made
/// here, sorted by the decoder they feed. Each seed must pass its target's check, and each target must
/// have seeds that decode, so libFuzzer starts past the decoders' first refusals. The corpus may hold
/// more than the seeds (inputs a fuzzing run found worth keeping); every seed must be there.
/// `INKWELL_WRITE_CORPUS=1 swift test --filter FuzzCorpusTests` writes the seeds.
@Suite struct FuzzCorpusTests {
    static let root = ConformanceVectorFile.packageRoot.appendingPathComponent("Fuzz/Corpus")

    @Test func theCorpusHoldsTheSeedsAndEveryInputPassesItsCheck() throws {
        let seeds = try Self.seeds()
        if ProcessInfo.processInfo.environment["INKWELL_WRITE_CORPUS"] == "1" {
            for (target, inputs) in seeds {
                let folder = Self.root.appendingPathComponent(target.rawValue)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for (name, bytes) in inputs {
                    try Data(bytes).write(to: folder.appendingPathComponent(name))
                }
                print("wrote \(inputs.count) seeds to \(folder.path)")
            }
            return
        }
        for target in FuzzTarget.allCases {
            let folder = Self.root.appendingPathComponent(target.rawValue)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            var decoded = 0
            for name in names {
                let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
                switch target.check(bytes) {
                case .failed(let reason): Issue.record("Fuzz/Corpus/\(target.rawValue)/\(name): \(reason)")
                case .decoded: decoded += 1
                case .rejected: break
                }
            }
            #expect(decoded > 0, "no seed of \(target.rawValue) decodes")
            for (name, bytes) in seeds[target] ?? [] {
                let committed = try? Data(contentsOf: folder.appendingPathComponent(name))
                #expect(
                    committed.map([UInt8].init) == bytes,
                    "Fuzz/Corpus/\(target.rawValue)/\(name) is stale: run INKWELL_WRITE_CORPUS=1 swift test --filter FuzzCorpusTests"
                )
            }
        }
    }

    /// The seeds of every target, named by where they come from.
    static func seeds() throws -> [FuzzTarget: [(name: String, bytes: [UInt8])]] {
        let wire = try Self.vectors("wire.json")
        let snapshots = try Self.vectors("snapshots.json")
        var seeds: [FuzzTarget: [(name: String, bytes: [UInt8])]] = [:]
        func add(
            _ target: FuzzTarget,
            _ prefix: String,
            _ list: Any?,
            where keep: ([String: Any]) -> Bool = { _ in true }
        ) {
            for (index, entry) in ((list as? [[String: Any]]) ?? []).enumerated() where keep(entry) {
                guard let bytes = Self.bytes(of: entry) else { continue }
                seeds[target, default: []].append((String(format: "\(prefix)-%03d", index), bytes))
            }
        }
        add(.change, "change", wire["changes"])
        add(.change, "future", wire["futureChanges"])
        add(.change, "invalid", wire["invalid"]) { $0["kind"] as? String == "change" }
        add(.pack, "pack", wire["packs"])
        add(.pack, "refused", wire["refusedPacks"])
        add(.pack, "invalid", wire["invalid"]) { $0["kind"] as? String == "pack" }
        add(.pack, "part", snapshots["parts"])
        add(.pack, "refused-part", snapshots["refusedParts"])
        add(.clientFrame, "frame", wire["frames"]) { $0["direction"] as? String == "client" }
        add(.clientFrame, "invalid", wire["invalid"]) { $0["kind"] as? String == "clientFrame" }
        add(.serverFrame, "frame", wire["frames"]) { $0["direction"] as? String == "server" }
        add(.serverFrame, "invalid", wire["invalid"]) { $0["kind"] as? String == "serverFrame" }

        let changes = Samples.changes.map(ChangeCodec.encode)
        let snapshot = DocumentSnapshot(
            room: "r",
            document: "main",
            type: .unnamed,
            schemaVersion: 1,
            cut: Cut(),
            changes: changes + [ChangeColumnsTests.withLongSeq(changes[0], seq: 1)]
        )
        seeds[.snapshot] = [
            ("samples-plain", snapshot.encoded(compression: .none)),
            ("samples-deflate", snapshot.encoded(compression: .deflate)),
        ]
        seeds[.interop] = Self.interop.enumerated().map { index, lines in
            (String(format: "session-%03d", index), Array(lines.joined(separator: "\n").utf8))
        }
        seeds[.folder] = Self.folderFiles(packs: seeds[.pack]?.filter { $0.name.hasPrefix("pack-") }.map(\.bytes) ?? [])
        return seeds
    }

    /// Folder files: one whole, the same cut inside its last record, one with a record of a kind this
    /// version does not know, and one whose second record is damaged.
    static func folderFiles(packs: [[UInt8]]) -> [(name: String, bytes: [UInt8])] {
        let replica = ReplicaID(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
        let start = FolderLog.fileStart(room: "room-1", replica: replica)
        let whole = start + packs.prefix(3).flatMap { FolderLog.encode(.pack($0)) }
        var damaged = whole
        damaged[start.count + 12] ^= 0x40
        return [
            ("file-whole", whole),
            ("file-cut", Array(whole.dropLast(5))),
            (
                "file-unknown-kind",
                start + FolderLog.encode(.unknown(kind: 9, bytes: [1, 2, 3])) + FolderLog.encode(.pack(packs[0]))
            ),
            ("file-damaged", damaged),
        ]
    }

    /// Sessions of the JSON stroke protocol, a message a line: the protocol's own examples, messages before
    /// their stroke's ADD, and malformed ones among good ones.
    static let interop: [[String]] = [
        [
            #"{ "type": "ADD", "identifier": "ABC_123", "weight": 1, "colour": [50, 0, 0], "start": [0, 0] }"#,
            #"{ "type": "APPEND", "identifier": "ABC_123", "points": [[127, 45], [35, 78]] }"#,
            #"{ "type": "DELETE", "identifier": "ABC_123", "start_offset": 15, "end_offset": 67 }"#,
        ],
        [
            #"{"type":"DELETE","identifier":"late","start_offset":0.5,"end_offset":1.5}"#,
            #"{"type":"APPEND","identifier":"late","points":[[1,1],[2,2],[3,5]]}"#,
            #"{"type":"ADD","identifier":"late","weight":3.5,"colour":[0,128,255],"start":[-4,2.25]}"#,
            #"{"type":"DELETE","identifier":"late","start_offset":0,"end_offset":3}"#,
        ],
        [
            #"{"type":"ADD","identifier":"x","weight":"heavy","colour":[0,0,0],"start":[0,0]}"#,
            #"{"type":"ADD","identifier":"y","weight":2,"colour":[0,0,300],"start":[0,0]}"#,
            #"{"type":"APPEND","identifier":"y","points":[[1e309,0]]}"#,
            #"{"type":"MOVE","identifier":"y"}"#,
            #"not json"#,
            #"{"type":"ADD","identifier":"z","weight":1,"colour":[1,2,3],"start":[5,5]}"#,
        ],
    ]

    /// A vector's bytes: `bytes` in hex, or `pieces`, runs of hex each repeated `count` times.
    private static func bytes(of entry: [String: Any]) -> [UInt8]? {
        if let hex = entry["bytes"] as? String { return Self.hex(hex) }
        guard let pieces = entry["pieces"] as? [[Any]] else { return nil }
        var bytes: [UInt8] = []
        for piece in pieces {
            guard piece.count == 2, let hex = piece[0] as? String, let count = piece[1] as? Int,
                let run = Self.hex(hex)
            else { return nil }
            for _ in 0..<count { bytes += run }
        }
        return bytes
    }

    private static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        return stride(from: 0, to: digits.count, by: 2).compactMap {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)
        }
    }

    private static func vectors(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: ConformanceVectorFile(name: name).url)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
