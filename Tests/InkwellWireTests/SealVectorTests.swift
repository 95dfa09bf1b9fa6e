import Foundation
import InkwellBoard
import InkwellSync
import InkwellTesting
import SwiftProtobuf
import Testing

@testable import InkwellWire

/// Sealed packs, presence and blobs (`docs/ACCESS-FORMATS.md`, "Sealing") between Swift and the browser.
///
/// `Conformance/seal.json` holds keys, capabilities, and packs, presence and blobs sealed by Swift under
/// fixed nonces, with what they open to, and sealed packs every reader refuses with Swift's error.
/// `Conformance/seal-js.json`, in the same format, holds what the browser seals; Swift must open it to
/// the plaintext listed and, under the same nonces, seal the same bytes.
@Suite struct SealVectorTests {
    @Test func sealVectorsAreCurrent() throws {
        try ConformanceVectorFile(name: "seal.json").check([
            "format": "inkwell-seal-conformance/1",
            "about": "Bytes are lowercase hex; u32 is big-endian. `key` (and `otherKey`) are room keys, 32 bytes; "
                + "`keyText` is `key` in base64url without padding; `keyId` is SHA-256(\"inkwell-room-key-id/1\" "
                + "|| key)[0..<8]. `capabilities`: `hash` is the SHA-256 of `text`'s UTF-8. `packs`: signed by the "
                + "Ed25519 key of `seed`, sealed with `key` under `nonce`: `bytes` decode for `room` with `key` to "
                + "`changes` and `id` (SHA-256 of `bytes`); `compression` is the envelope's, and a pack of "
                + "`none` seals and signs again to `bytes` byte for byte. `presences`: `sealed` is "
                + "Presence.sealed (nonce || ciphertext || tag) for `room` and `device`, opening to `json`. "
                + "`blobs`: `sealed` (nonce || ciphertext || tag) opens for `room` to `plain`; `sha256` is its "
                + "address. `refused`, `refusedPresences`, `refusedBlobs`: read for `room` with `key` (`key`, "
                + "`otherKey` or `none`), they fail with `error` (WireError's description). A sealed pack is read "
                + "in this order: signature and room; schema; no key: encrypted; scheme (aes-256-gcm); key_id of 8 "
                + "bytes; nonce of 12 bytes; body_size at most 64 MiB; body at most body_size + (body_size + 7) / 8 "
                + "+ (body_size + 63) / 64 + 5 + 16 bytes; key_id equal to the key's; authentication (a body "
                + "shorter than the tag fails it); then as a plain pack. With a key, a plain pack is refused "
                + "(unsealed); a presence or blob that does not open is tampered.",
            "key": WireHex.encode(SealVectors.key.bytes),
            "keyText": SealVectors.key.text,
            "keyId": WireHex.encode(SealVectors.key.id),
            "otherKey": WireHex.encode(SealVectors.otherKey.bytes),
            "capabilities": SealVectors.capabilities(),
            "packs": try SealVectors.packs(),
            "presences": try SealVectors.presences(),
            "blobs": try SealVectors.blobs(),
            "refused": try SealVectors.refusedPacks().map { $0.json },
            "refusedPresences": try SealVectors.refusedPresences().map { $0.json },
            "refusedBlobs": SealVectors.refusedBlobs().map { $0.json },
        ])
    }

    /// Every refused case fails with the error it is listed for, so the file records what was meant.
    @Test func refusedCasesFailWithTheirOwnErrors() throws {
        for refused in try SealVectors.refusedPacks() + SealVectors.refusedPresences() + SealVectors.refusedBlobs() {
            #expect(throws: refused.expected, "\(refused.name)") { try refused.read() }
        }
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: ConformanceVectorFile(name: "seal-js.json").url.path),
            "Conformance/seal-js.json is not there yet: the browser writes it"
        )
    )
    func swiftOpensWhatJavaScriptSeals() throws {
        try Self.openEverything(in: "seal-js.json")
    }

    /// The reader of seal-js.json, run on Swift's own file: it agrees with itself, and the reader works
    /// before the browser's file exists.
    @Test func swiftOpensItsOwnVectorsAsItReadsTheBrowsers() throws {
        try Self.openEverything(in: "seal.json")
    }

    /// Opens every pack, presence and blob of the file `name` and compares them with the plaintext it
    /// lists; seals them again under the listed nonces; reads every refused case to its listed error.
    static func openEverything(in name: String) throws {
        let data = try Data(contentsOf: ConformanceVectorFile(name: name).url)
        let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(file["format"] as? String == "inkwell-seal-conformance/1")
        let key = try #require(RoomKey(bytes: try WireHex.decode(file["key"])))
        let otherKey = try #require(RoomKey(bytes: try WireHex.decode(file["otherKey"])))
        #expect(RoomKey(text: try #require(file["keyText"] as? String)) == key, "keyText")
        #expect(WireHex.encode(key.id) == file["keyId"] as? String, "keyId")
        func keyNamed(_ name: Any?) -> RoomKey? { name as? String == "otherKey" ? otherKey : key }

        for vector in file["capabilities"] as? [[String: Any]] ?? [] {
            let text = try #require(vector["text"] as? String)
            let capability = try #require(Capability(text))
            #expect("\(capability.kind)" == vector["kind"] as? String, "capability \(capability.text) kind")
            #expect(WireHex.encode(capability.hash) == vector["hash"] as? String, "capability \(capability.text)")
        }
        let packs = try #require(file["packs"] as? [[String: Any]])
        for vector in packs {
            let name = vector["name"] as? String ?? "?"
            let bytes = try WireHex.decode(vector["bytes"])
            let room = try #require(vector["room"] as? String)
            let pack = try PackCodec.decode(bytes, room: room, key: key)
            #expect(WireHex.encode(pack.id.bytes) == vector["id"] as? String, "pack \(name) id")
            let author = try AuthorKey(rawRepresentation: try WireHex.decode(vector["seed"]))
            #expect(pack.author == author.replica, "pack \(name) author")
            #expect(pack.changes.map(WireHex.encode) == vector["changes"] as? [String], "pack \(name) changes")
            if vector["compression"] as? String == "none" {
                let again = PackCodec.encode(
                    pack.pack,
                    signedBy: author,
                    compression: .none,
                    sealedWith: key,
                    nonce: try WireHex.decode(vector["nonce"])
                )
                #expect(again == bytes, "pack \(name) seals again byte for byte")
            }
        }
        let presences = try #require(file["presences"] as? [[String: Any]])
        for vector in presences {
            let name = vector["name"] as? String ?? "?"
            let device = try #require(ReplicaID(bytes: try WireHex.decode(vector["device"])))
            let room = try #require(vector["room"] as? String)
            let sealed = Presence(
                room: room,
                device: device,
                name: "",
                colour: 0,
                sealed: try WireHex.decode(vector["sealed"])
            )
            let opened = try sealed.opened(with: key)
            #expect(WireJSON.same(SealVectors.presenceJSON(opened), vector["json"]), "presence \(name)")
            let again = opened.sealed(with: key, nonce: try WireHex.decode(vector["nonce"]))
            #expect(again == sealed, "presence \(name) seals again byte for byte")
        }
        let blobs = try #require(file["blobs"] as? [[String: Any]])
        for (index, vector) in blobs.enumerated() {
            let room = try #require(vector["room"] as? String)
            let sealed = try WireHex.decode(vector["sealed"])
            let plain = try BlobSeal.open(sealed, room: room, key: key)
            #expect(WireHex.encode(plain) == vector["plain"] as? String, "blob \(index)")
            #expect(WireHex.encode(PackID(of: sealed).bytes) == vector["sha256"] as? String, "blob \(index) address")
            let again = BlobSeal.seal(plain, room: room, key: key, nonce: try WireHex.decode(vector["nonce"]))
            #expect(again == sealed, "blob \(index) seals again byte for byte")
        }
        #expect(!packs.isEmpty && !presences.isEmpty && !blobs.isEmpty)

        for vector in file["refused"] as? [[String: Any]] ?? [] {
            let bytes = try WireHex.decode(vector["bytes"])
            let room = try #require(vector["room"] as? String)
            let reader = vector["key"] as? String == "none" ? nil : keyNamed(vector["key"])
            let error = SealVectors.verdict { () throws(WireError) in
                _ = try PackCodec.decode(bytes, room: room, key: reader)
            }
            #expect(error == vector["error"] as? String, "refused pack \(vector["name"] ?? "?")")
        }
        for vector in file["refusedPresences"] as? [[String: Any]] ?? [] {
            let device = try #require(ReplicaID(bytes: try WireHex.decode(vector["device"])))
            let presence = Presence(
                room: try #require(vector["room"] as? String),
                device: device,
                name: "",
                colour: 0,
                sealed: try WireHex.decode(vector["sealed"])
            )
            let reader = try #require(keyNamed(vector["key"]))
            let error = SealVectors.verdict { () throws(WireError) in _ = try presence.opened(with: reader) }
            #expect(error == vector["error"] as? String, "refused presence \(vector["name"] ?? "?")")
        }
        for vector in file["refusedBlobs"] as? [[String: Any]] ?? [] {
            let bytes = try WireHex.decode(vector["bytes"])
            let room = try #require(vector["room"] as? String)
            let reader = try #require(keyNamed(vector["key"]))
            let error = SealVectors.verdict { () throws(WireError) in
                _ = try BlobSeal.open(bytes, room: room, key: reader)
            }
            #expect(error == vector["error"] as? String, "refused blob \(vector["name"] ?? "?")")
        }
    }
}

/// The cases of `Conformance/seal.json`: keys, nonces and seeds are fixed, so the file changes only when
/// the format does.
enum SealVectors {
    static let key = RoomKey(bytes: (0..<32).map { UInt8($0) })!
    static let otherKey = RoomKey(bytes: (0..<32).map { UInt8(0xE0 - 7 * $0) })!
    static let authorKey = WireVectors.authorKey
    static let otherAuthor = WireVectors.otherKey
    /// A room id as the page makes them, and a second room to move things into.
    static let room = "Kq3Zt0aLw9PxYbN2mR7sVc"
    static let otherRoom = "room-b"

    /// The `index`th fixed nonce: twelve bytes no two vectors share.
    static func nonce(_ index: UInt8) -> [UInt8] {
        (0..<12).map { UInt8(truncatingIfNeeded: 0x5A &+ index &* 29 &+ UInt8($0) &* 13) }
    }

    static func capabilities() -> [[String: Any]] {
        Capability.Kind.allCases.enumerated().map { index, kind in
            let bytes = (0..<32).map { UInt8(truncatingIfNeeded: 3 * $0 + 41 * index + 7) }
            let capability = Capability(String(kind.rawValue) + Base64URL.encode(bytes))!
            return ["text": capability.text, "kind": "\(kind)", "hash": WireHex.encode(capability.hash)]
        }
    }

    /// `count` of wire.json's random changes (none for 0), made `author`'s.
    static func changes(_ count: Int, seed: UInt64, by author: AuthorKey = authorKey) -> [[UInt8]] {
        guard count > 0 else { return [] }
        return WireVectors.authored(WireVectors.randomChanges(seed: seed, count: count), by: author)
            .map(ChangeCodec.encode)
    }

    static func packs() throws -> [[String: Any]] {
        let cases: [(String, String, [[UInt8]], PackCodec.Compression)] = [
            ("deflate", room, changes(6, seed: 21), .deflate),
            ("no compression", room, changes(6, seed: 21), .none),
            ("one change, no compression", "room-a", changes(1, seed: 22), .none),
            ("empty", room, [], .none),
            ("many changes", room, changes(120, seed: 23), .deflate),
        ]
        return try cases.enumerated().map { index, entry in
            let (name, room, changes, compression) = entry
            let nonce = nonce(UInt8(index))
            let bytes = PackCodec.encode(
                Pack(room: room, changes: changes),
                signedBy: authorKey,
                compression: compression,
                sealedWith: key,
                nonce: nonce
            )
            let wire = try WirePack(serializedBytes: bytes)
            #expect(wire.compression == (compression == .none ? .none : .deflate), "\(name) keeps its compression")
            let decoded = try PackCodec.decode(bytes, room: room, key: key)
            #expect(decoded.changes == changes, "\(name)")
            return [
                "name": name, "room": room, "seed": WireHex.encode(authorKey.rawRepresentation),
                "nonce": WireHex.encode(nonce), "compression": wire.compression == .none ? "none" : "deflate",
                "changes": decoded.changes.map(WireHex.encode), "bytes": WireHex.encode(bytes),
                "id": WireHex.encode(decoded.id.bytes),
            ]
        }
    }

    static let ink = (
        board: "main", colour: UInt32(0x2040_60FF), width: 3.5, points: [UInt8]([0x08, 0x08, 0x12, 0x02, 0x02, 0x04])
    )

    static let presenceCases: [(String, Presence)] = [
        ("nothing but a name", Presence(room: room, device: WireVectors.alice, name: "Alice", colour: 0xFF00_00FF)),
        ("empty", Presence(room: room, device: WireVectors.alice, name: "", colour: 0)),
        (
            "a cursor",
            Presence(
                room: room,
                device: WireVectors.bob,
                name: "B\u{F6}b \u{270F}\u{FE0F}",
                colour: 3,
                cursor: (0, -12.5)
            )
        ),
        (
            "ink in progress",
            Presence(room: "room-a", device: WireVectors.alice, name: "Al", colour: 1, cursor: (1e6, 3.25), ink: ink)
        ),
        (
            "a cursor and empty ink",
            Presence(
                room: room,
                device: WireVectors.bob,
                name: "A",
                colour: 2,
                cursor: (5, 6),
                ink: (board: "", colour: 0, width: 0, points: [])
            )
        ),
    ]

    /// A presence's fields as wire.json's presence JSON names them, but for the room and device that
    /// stay outside the seal.
    static func presenceJSON(_ presence: Presence) -> [String: Any] {
        WireJSON.unsealedPresence(presence).filter { !["type", "room", "device"].contains($0.key) }
    }

    static func presences() throws -> [[String: Any]] {
        var vectors: [[String: Any]] = []
        for (index, (name, presence)) in presenceCases.enumerated() {
            let nonce = nonce(UInt8(16 + index))
            let sealed = presence.sealed(with: key, nonce: nonce)
            #expect(sealed.name.isEmpty && sealed.cursor == nil && sealed.ink == nil && sealed.colour == 0)
            #expect(try sealed.opened(with: key) == presence, "\(name)")
            vectors.append([
                "name": name, "room": presence.room, "device": WireHex.encode(presence.device.bytes),
                "nonce": WireHex.encode(nonce), "json": presenceJSON(presence), "sealed": WireHex.encode(sealed.sealed),
            ])
        }
        return vectors
    }

    static let blobCases: [(String, [UInt8])] = [
        (room, []),
        (room, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("an image".utf8)),
        ("room-a", (0..<1_000).map { UInt8(truncatingIfNeeded: $0 * $0 + 11) }),
    ]

    static func blobs() throws -> [[String: Any]] {
        var vectors: [[String: Any]] = []
        for (index, (room, plain)) in blobCases.enumerated() {
            let nonce = nonce(UInt8(32 + index))
            let sealed = BlobSeal.seal(plain, room: room, key: key, nonce: nonce)
            #expect(try BlobSeal.open(sealed, room: room, key: key) == plain)
            vectors.append([
                "room": room, "nonce": WireHex.encode(nonce), "plain": WireHex.encode(plain),
                "sealed": WireHex.encode(sealed),
                // A pack id is the SHA-256 of its bytes; so is a blob's address.
                "sha256": WireHex.encode(PackID(of: sealed).bytes),
            ])
        }
        return vectors
    }

    /// A case every reader refuses, with the error it is meant to fail with.
    struct Refused {
        let name: String
        let expected: WireError
        let json: [String: Any]
        let read: () throws(WireError) -> Void
    }

    /// Which of the vectors' keys `key` is, by the file's names.
    static func keyName(_ reader: RoomKey?) -> String {
        switch reader {
        case nil: "none"
        case key: "key"
        default: "otherKey"
        }
    }

    /// Sealed packs (and one plain pack) that every reader refuses.
    static func refusedPacks() throws -> [Refused] {
        let changes = changes(3, seed: 31)
        let pack = Pack(room: room, changes: changes)
        let honest = PackCodec.encode(pack, signedBy: authorKey, compression: .none, sealedWith: key, nonce: nonce(48))
        let deflated = PackCodec.encode(pack, signedBy: authorKey, sealedWith: key, nonce: nonce(49))
        let wire = try WirePack(serializedBytes: honest)
        /// `honest` changed by `edit`, then signed by `signer`: each gets past the signature to what is wrong.
        func edited(_ signer: AuthorKey = authorKey, _ edit: (inout WirePack) throws -> Void) throws -> [UInt8] {
            var copy = wire
            try edit(&copy)
            copy.author = Data(signer.publicKey)
            copy.signature = Data()
            return PackCodec.signed(try copy.serializedBytes(), by: signer)
        }
        // A bit of the sealed body flipped in the signed bytes: the signature catches it first.
        var flipped = honest
        let bodyStart = try #require(indexOf(Array(wire.body), in: honest))
        flipped[bodyStart] ^= 0x01
        let foreign = WireVectors.change(otherAuthor.replica, 1, [.clear])
        let mixed = PackCodec.encode(
            Pack(room: room, changes: changes + [ChangeCodec.encode(foreign)]),
            signedBy: authorKey,
            compression: .none,
            sealedWith: key,
            nonce: nonce(50)
        )
        let underOtherKey = PackCodec.encode(
            pack,
            signedBy: authorKey,
            compression: .none,
            sealedWith: otherKey,
            nonce: nonce(51)
        )
        var forgedID = try WirePack(serializedBytes: underOtherKey)
        forgedID.encryption.keyID = Data(key.id)
        forgedID.signature = Data()
        let plain = PackCodec.encode(pack, signedBy: authorKey)
        let notABody = [UInt8]([0xFF, 0xFF, 0x01])
        func sealedBody(_ body: [UInt8], size: Int, compression: WireCompression) throws -> [UInt8] {
            try edited { wire in
                wire.bodySize = UInt32(size)
                wire.compression = compression
                wire.body = Data(body)
                PackCodec.seal(&wire, with: key, nonce: nonce(52))
            }
        }
        let plainBody = PackCodec.body(changes.map { (room: "", change: $0) })

        let cases: [(String, String, RoomKey?, [UInt8], WireError)] = [
            ("read without the key", room, nil, honest, .encrypted),
            ("read with another key (its id differs)", room, otherKey, honest, .wrongKey),
            ("replayed into another room", otherRoom, key, honest, .wrongRoom),
            ("a flipped ciphertext bit", room, key, flipped, .badSignature),
            ("a flipped ciphertext bit, signed again", room, key, try edited { $0.body[0] ^= 0x01 }, .tampered),
            (
                "a flipped tag bit, signed again", room, key,
                try edited { $0.body[$0.body.count - 1] ^= 0x80 }, .tampered
            ),
            ("the sealed body signed again by another author", room, key, try edited(otherAuthor) { _ in }, .tampered),
            (
                "the sealed body moved into a pack for another room, signed again", otherRoom, key,
                try edited { $0.room = otherRoom }, .tampered
            ),
            ("the declared size changed, signed again", room, key, try edited { $0.bodySize += 1 }, .tampered),
            ("the compression changed, signed again", room, key, try edited { $0.compression = .deflate }, .tampered),
            ("the schema version changed, signed again", room, key, try edited { $0.schemaVersion = 0 }, .tampered),
            (
                "sealed with another key under this key's id", room, key,
                PackCodec.signed(try forgedID.serializedBytes(), by: authorKey), .tampered
            ),
            ("a truncated body, signed again", room, key, try edited { $0.body.removeLast() }, .tampered),
            (
                "a body shorter than its tag, signed again", room, key,
                try edited { $0.body = $0.body.prefix(15) }, .tampered
            ),
            ("an empty body, signed again", room, key, try edited { $0.body = Data() }, .tampered),
            (
                "an unknown scheme", room, key, try edited { $0.encryption.scheme = "xchacha20poly1305" },
                .unsupportedEncryption
            ),
            ("no scheme", room, key, try edited { $0.encryption.scheme = "" }, .unsupportedEncryption),
            (
                "an unknown scheme, read without the key", room, nil,
                try edited { $0.encryption.scheme = "xchacha20poly1305" }, .encrypted
            ),
            (
                "a nonce of 11 bytes", room, key, try edited { $0.encryption.nonce.removeLast() },
                .invalidField("pack.encryption.nonce")
            ),
            (
                "a nonce of 16 bytes", room, key, try edited { $0.encryption.nonce.append(Data([1, 2, 3, 4])) },
                .invalidField("pack.encryption.nonce")
            ),
            (
                "a key id of 7 bytes", room, key, try edited { $0.encryption.keyID.removeLast() },
                .invalidField("pack.encryption.key_id")
            ),
            (
                "a sealed body far larger than its declared size", room, key,
                try edited { $0.body.append(Data(repeating: 0, count: 4_096)) }, .tooLarge("sealed pack body")
            ),
            (
                "a declared size over 64 MiB", room, key,
                try edited { $0.bodySize = UInt32(WireLimits.maximumPackBodyBytes + 1) }, .tooLarge("pack body")
            ),
            ("a plain pack read with the key", room, key, plain, .unsealed),
            ("another replica's change sealed inside", room, key, mixed, .forgedAuthor),
            (
                "a sealed body that is not a pack body", room, key,
                try sealedBody(notABody, size: notABody.count, compression: .none), .malformed("pack body")
            ),
            (
                "a sealed plain body of another size", room, key,
                try sealedBody(plainBody, size: plainBody.count + 1, compression: .none),
                .invalidField("pack.body_size")
            ),
            (
                "a sealed deflate stream that is not one", room, key,
                try sealedBody(plainBody, size: plainBody.count, compression: .deflate),
                .malformed("pack body compression")
            ),
            ("a deflated pack read with another key", room, otherKey, deflated, .wrongKey),
        ]
        return cases.map { name, room, reader, bytes, expected in
            Refused(
                name: name,
                expected: expected,
                json: [
                    "name": name, "room": room, "key": keyName(reader), "bytes": WireHex.encode(bytes),
                    "error": verdict { () throws(WireError) in _ = try PackCodec.decode(bytes, room: room, key: reader)
                    },
                ],
                read: { () throws(WireError) in _ = try PackCodec.decode(bytes, room: room, key: reader) }
            )
        }
    }

    /// Sealed presence that does not open, or opens to fields a plain presence frame could not carry.
    static func refusedPresences() throws -> [Refused] {
        let presence = presenceCases[3].1
        let sealed = presence.sealed(with: key, nonce: nonce(64)).sealed
        func sealedInside(_ fill: (inout WireSealedPresence) -> Void) throws -> [UInt8] {
            var inside = WireSealedPresence()
            fill(&inside)
            return Sealing.sealWithNonce(
                try inside.serializedBytes(),
                key: key,
                nonce: nonce(65),
                associatedData: Sealing.associatedData("inkwell-presence-seal/1", room: presence.room)
                    + presence.device.bytes
            )
        }
        var flipped = sealed
        flipped[20] ^= 0x04
        let garbage = Sealing.sealWithNonce(
            [0xFF, 0xFF],
            key: key,
            nonce: nonce(66),
            associatedData: Sealing.associatedData("inkwell-presence-seal/1", room: presence.room)
                + presence.device.bytes
        )
        let cases: [(String, String, ReplicaID, RoomKey, [UInt8], WireError)] = [
            ("a flipped bit", presence.room, presence.device, key, flipped, .tampered),
            ("another key", presence.room, presence.device, otherKey, sealed, .tampered),
            ("replayed into another room", otherRoom, presence.device, key, sealed, .tampered),
            ("replayed as another device", presence.room, WireVectors.bob, key, sealed, .tampered),
            (
                "cut to the nonce and a tag's length less one", presence.room, presence.device, key,
                Array(sealed.prefix(27)), .tampered
            ),
            ("not sealed", presence.room, presence.device, key, [], .unsealed),
            (
                "a sealed message that is not a SealedPresence", presence.room, presence.device, key, garbage,
                .malformed("sealed presence")
            ),
            (
                "an infinite cursor inside", presence.room, presence.device, key,
                try sealedInside {
                    $0.hasCursor_p = true
                    $0.cursorX = .infinity
                },
                .invalidField("presence.cursor")
            ),
            (
                "a name of 257 bytes inside", presence.room, presence.device, key,
                try sealedInside { $0.name = String(repeating: "a", count: 257) }, .invalidField("presence.name")
            ),
            (
                "too much ink inside", presence.room, presence.device, key,
                try sealedInside { $0.ink.points = Data(count: SyncProtocol.maximumPresenceBytes + 1) },
                .tooLarge("presence.ink")
            ),
        ]
        return cases.map { name, room, device, reader, sealed, expected in
            let received = Presence(room: room, device: device, name: "", colour: 0, sealed: sealed)
            return Refused(
                name: name,
                expected: expected,
                json: [
                    "name": name, "room": room, "device": WireHex.encode(device.bytes), "key": keyName(reader),
                    "sealed": WireHex.encode(sealed),
                    "error": verdict { () throws(WireError) in _ = try received.opened(with: reader) },
                ],
                read: { () throws(WireError) in _ = try received.opened(with: reader) }
            )
        }
    }

    static func refusedBlobs() -> [Refused] {
        let plain = blobCases[1].1
        let sealed = BlobSeal.seal(plain, room: room, key: key, nonce: nonce(80))
        var flipped = sealed
        flipped[sealed.count - 3] ^= 0x10
        let cases: [(String, String, RoomKey, [UInt8])] = [
            ("a flipped bit", room, key, flipped),
            ("another key", room, otherKey, sealed),
            ("another room", otherRoom, key, sealed),
            ("truncated", room, key, Array(sealed.dropLast())),
            ("shorter than a nonce and a tag", room, key, Array(sealed.prefix(27))),
            ("empty", room, key, []),
        ]
        return cases.map { name, room, reader, bytes in
            Refused(
                name: name,
                expected: .tampered,
                json: [
                    "name": name, "room": room, "key": keyName(reader), "bytes": WireHex.encode(bytes),
                    "error": verdict { () throws(WireError) in _ = try BlobSeal.open(bytes, room: room, key: reader) },
                ],
                read: { () throws(WireError) in _ = try BlobSeal.open(bytes, room: room, key: reader) }
            )
        }
    }

    /// The description of the error `read` throws, or "accepted".
    static func verdict(_ read: () throws(WireError) -> Void) -> String {
        do {
            try read()
            return "accepted"
        } catch {
            return error.description
        }
    }

    /// Where `needle` first starts in `haystack`.
    static func indexOf(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
