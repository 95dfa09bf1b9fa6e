import Foundation
import InkwellSync
import Testing

@testable import InkwellWire

@Suite struct SealedPresenceTests {
    static let key = SealVectors.key

    @Test(arguments: SealVectors.presenceCases.map(\.1))
    func sealedPresenceRoundTripsThroughAFrame(presence: Presence) throws {
        let sealed = presence.sealed(with: Self.key)
        // The relay sees the room and the device, and nothing else.
        #expect(sealed.room == presence.room && sealed.device == presence.device)
        #expect(sealed.name.isEmpty && sealed.colour == 0 && sealed.cursor == nil && sealed.ink == nil)
        #expect(!sealed.sealed.isEmpty)
        guard case .presence(let relayed) = try SyncCodec.decodeClient(SyncCodec.encode(ClientMessage.presence(sealed)))
        else {
            Issue.record("not a presence frame")
            return
        }
        #expect(relayed == sealed)
        #expect(try relayed.opened(with: Self.key) == presence)
    }

    @Test func twoSealsOfTheSamePresenceDiffer() throws {
        let presence = SealVectors.presenceCases[3].1
        let first = presence.sealed(with: Self.key)
        let second = presence.sealed(with: Self.key)
        #expect(first.sealed != second.sealed)
        #expect(first.sealed.prefix(12) != second.sealed.prefix(12))
        #expect(try first.opened(with: Self.key) == second.opened(with: Self.key))
    }

    /// The largest presence a plain frame may carry still fits a frame once sealed.
    @Test func theLargestPresenceStillFitsAFrameOnceSealed() throws {
        let presence = Presence(
            room: String(repeating: "r", count: 128),
            device: Samples.alice,
            name: String(repeating: "n", count: WireLimits.maximumNameBytes),
            colour: .max,
            cursor: (-1e300, 1e300),
            ink: (
                board: String(repeating: "b", count: WireLimits.maximumNameBytes), colour: .max, width: 1e9,
                points: [UInt8](repeating: 0xFF, count: SyncProtocol.maximumPresenceBytes)
            )
        )
        let sealed = presence.sealed(with: Self.key)
        guard case .presence(let relayed) = try SyncCodec.decodeServer(SyncCodec.encode(ServerMessage.presence(sealed)))
        else {
            Issue.record("not a presence frame")
            return
        }
        #expect(try relayed.opened(with: Self.key) == presence)
    }

    /// A sealed presence opens only with the room's key, in its room, for its device.
    @Test func aSealedPresenceIsBoundToItsKeyRoomAndDevice() throws {
        let presence = SealVectors.presenceCases[2].1
        let sealed = presence.sealed(with: Self.key)
        #expect(throws: WireError.tampered) { try sealed.opened(with: SealVectors.otherKey) }
        var moved = sealed
        moved.room = "room-b"
        #expect(throws: WireError.tampered) { try moved.opened(with: Self.key) }
        var impostor = sealed
        impostor.device = Samples.bob
        #expect(throws: WireError.tampered) { try impostor.opened(with: Self.key) }
        #expect(throws: WireError.unsealed) { try presence.opened(with: Self.key) }
        // Fields written outside the seal are not believed.
        var decorated = sealed
        decorated.name = "Mallory"
        decorated.cursor = (1, 1)
        #expect(try decorated.opened(with: Self.key) == presence)
    }

    /// Any flipped bit or cut of the sealed bytes is refused.
    @Test func anyAlterationOfASealedPresenceIsRefused() throws {
        let sealed = SealVectors.presenceCases[3].1.sealed(with: Self.key)
        for index in sealed.sealed.indices {
            for bit in [0, 5] as [UInt8] {
                var flipped = sealed
                flipped.sealed[index] ^= 1 << bit
                #expect(throws: WireError.tampered, "byte \(index)") { try flipped.opened(with: Self.key) }
            }
            var cut = sealed
            cut.sealed = Array(sealed.sealed.prefix(index))
            #expect(throws: WireError.self, "cut at \(index)") { try cut.opened(with: Self.key) }
        }
    }

    /// Seeded random presence, any field and any size within the limits, round trips.
    @Test func randomSealedPresenceRoundTrips() throws {
        let seed = wireTestSeed("randomSealedPresenceRoundTrips")
        var generator = SplitMix64(seed: seed)
        func text(_ limit: Int) -> String {
            String(
                (0..<Int.random(in: 0...limit, using: &generator)).map { _ in "aé✏️ -".randomElement(using: &generator)!
                }
            )
            .utf8Prefix(limit)
        }
        for round in 0..<300 {
            let key = RoomKey.generate(using: &generator)
            let presence = Presence(
                room: "room-\(round)",
                device: ReplicaID(using: &generator),
                name: text(WireLimits.maximumNameBytes),
                colour: UInt32.random(in: 0...UInt32.max, using: &generator),
                cursor: Bool.random(using: &generator)
                    ? (
                        Double.random(in: -1e9...1e9, using: &generator),
                        Double.random(in: -1e9...1e9, using: &generator)
                    )
                    : nil,
                ink: Bool.random(using: &generator)
                    ? (
                        board: text(40), colour: UInt32.random(in: 0...UInt32.max, using: &generator),
                        width: Double.random(in: 0...100, using: &generator),
                        points: (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                            UInt8.random(in: 0...255, using: &generator)
                        }
                    )
                    : nil
            )
            let sealed = presence.sealed(with: key)
            #expect(try sealed.opened(with: key) == presence, "seed \(seed), round \(round)")
        }
    }
}

extension String {
    /// The longest prefix of whole characters within `limit` UTF-8 bytes.
    fileprivate func utf8Prefix(_ limit: Int) -> String {
        var result = ""
        for character in self where result.utf8.count + character.utf8.count <= limit { result.append(character) }
        return result
    }
}
