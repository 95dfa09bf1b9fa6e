import InkwellSync
import InkwellTesting
import SwiftProtobuf
import Testing

@testable import InkwellWire

/// Presence is written straight into bytes (`SyncCodec+Presence.swift`); a relay and every peer decode
/// it with the generated messages. The two must agree byte for byte on every presence, defaults and
/// edge values included.
@Suite struct PresenceEncodingTests {
    /// A presence with each field present or at its default, at random: empty strings, a zero colour,
    /// cursors at 0, −0 and extremes, ink with every field at its default, long ink, sealed bytes.
    static func presence(using random: inout SeededGenerator) -> Presence {
        func text(_ random: inout SeededGenerator) -> String {
            ["", "r", "room-1", "Ada Lovelace", "Zoë ✍️", String(repeating: "x", count: 130)][
                Int(random.next() % 6)
            ]
        }
        func number(_ random: inout SeededGenerator) -> Double {
            [0, -0.0, 1.5, -2, 1e300, .leastNonzeroMagnitude, random.uniform(-5_000...5_000)][Int(random.next() % 7)]
        }
        var presence = Presence(
            room: text(&random),
            device: ReplicaID(high: random.next(), low: random.next()),
            name: text(&random),
            colour: random.next() % 3 == 0 ? 0 : UInt32(truncatingIfNeeded: random.next())
        )
        if random.next() % 2 == 0 { presence.cursor = (number(&random), number(&random)) }
        if random.next() % 2 == 0 {
            let points = (0..<Int(random.next() % 3 == 0 ? 0 : random.next() % 400)).map { _ in
                UInt8(truncatingIfNeeded: random.next())
            }
            presence.ink = (
                text(&random), random.next() % 3 == 0 ? 0 : UInt32(truncatingIfNeeded: random.next()),
                number(&random), points
            )
        }
        if random.next() % 4 == 0 {
            presence.sealed = (0..<Int(1 + random.next() % 200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        }
        return presence
    }

    @Test func presenceWrittenDirectlyIsWhatTheGeneratedEncoderWrites() throws {
        let seed = SeededGenerator.seedFromEnvironment()
        print("presence encoding: INKWELL_SEED=\(seed)")
        var random = SeededGenerator(seed: seed)
        for round in 0..<3_000 {
            let presence = Self.presence(using: &random)
            let generated: [UInt8] = try SyncCodec.encode(presence).serializedBytes()
            #expect(SyncCodec.presenceMessage(presence) == generated, "INKWELL_SEED=\(seed), round \(round)")
            var frame = WireClientFrame()
            frame.frame = .presence(SyncCodec.encode(presence))
            let generatedFrame: [UInt8] = try frame.serializedBytes()
            #expect(
                SyncCodec.encode(ClientMessage.presence(presence)) == generatedFrame,
                "INKWELL_SEED=\(seed), round \(round)"
            )
        }
    }
}
