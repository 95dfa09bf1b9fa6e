import Foundation
import InkwellSync
import Testing

@testable import InkwellWire

@Suite struct RoomKeyTests {
    @Test func aKeysTextIsItsBytesInBase64URLAndReadsBack() throws {
        let key = try #require(RoomKey(bytes: (0..<32).map { UInt8($0) }))
        #expect(key.text == "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
        #expect(key.text.utf8.count == 43)
        #expect(RoomKey(text: key.text) == key)
        var generator = SplitMix64(seed: 3)
        for _ in 0..<200 {
            let random = RoomKey.generate(using: &generator)
            #expect(RoomKey(text: random.text) == random)
            #expect(random.text.utf8.count == 43)
        }
    }

    @Test func textThatIsNotExactlyThirtyTwoBytesOfCanonicalBase64URLIsRefused() throws {
        let text = try #require(RoomKey(bytes: [UInt8](repeating: 0xFF, count: 32))).text
        #expect(text == String(repeating: "_", count: 42) + "8")
        for bad in [
            "", String(text.dropLast()), text + "A", text + "=", text.replacingOccurrences(of: "_", with: "/"),
            // The last character's two low bits are padding: "9" spells the same bytes, but not canonically.
            String(text.dropLast()) + "9", String(repeating: "A", count: 44), "a" + String(text.dropFirst()) + " ",
        ] {
            #expect(RoomKey(text: bad) == nil, "\(bad)")
        }
        #expect(RoomKey(bytes: [UInt8](repeating: 1, count: 31)) == nil)
        #expect(RoomKey(bytes: [UInt8](repeating: 1, count: 33)) == nil)
    }

    /// The first 8 bytes of SHA-256("inkwell-room-key-id/1" || key), as the page derives it.
    @Test func theKeyIdIsADomainSeparatedHashOfTheKey() throws {
        let key = try #require(RoomKey(bytes: (0..<32).map { UInt8($0) }))
        // Python: hashlib.sha256(b"inkwell-room-key-id/1" + bytes(range(32))).hexdigest()[:16]
        #expect(WireHex.encode(key.id) == "fdc20b84a62d5088")
        #expect(key.id.count == RoomKey.idByteCount)
        #expect(try #require(RoomKey(bytes: (1...32).map { UInt8($0) })).id != key.id)
    }

    @Test func generatedKeysDiffer() {
        let keys = (0..<64).map { _ in RoomKey.generate() }
        #expect(Set(keys.map(\.text)).count == keys.count)
        #expect(Set(keys.map(\.id)).count == keys.count)
    }

    /// A key is a secret: descriptions, debug descriptions and dumps name its id, never its bytes.
    @Test func noDescriptionPrintsTheKey() throws {
        let key = try #require(RoomKey(bytes: (0..<32).map { UInt8($0) }))
        var dumped = ""
        dump(key, to: &dumped)
        for shown in ["\(key)", String(describing: key), String(reflecting: key), dumped, "\([key])"] {
            #expect(!shown.contains(key.text), "\(shown)")
            #expect(!shown.contains(WireHex.encode(key.bytes)), "\(shown)")
            #expect(!shown.contains("AAECAwQF"), "\(shown)")
        }
        #expect("\(key)" == "room key " + WireHex.encode(key.id))
    }
}
