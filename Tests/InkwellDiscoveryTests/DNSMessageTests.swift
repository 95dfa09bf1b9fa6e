import Foundation
import InkwellTesting
import Logging
import Testing

@testable import InkwellDiscovery

/// The DNS messages of service discovery: what a responder writes reads back the same, and datagrams
/// built to hurt (compression loops, lying counts, cut records, random bytes) are refused, never
/// followed or trusted.
@Suite struct DNSMessageTests {
    static let type = DNSName("_inkwell._tcp.local")
    static let testType = DNSName("_inkwell-test._tcp.local")

    static func response() -> DNSMessage {
        let instance = type.prefixed(by: "inkwell-hall-8080-abcdef")
        let host = DNSName("hall.local")
        return DNSMessage(
            id: 7,
            flags: DNSMessage.responseFlags,
            questions: [DNSMessage.Question(name: type, type: DNSType.ptr)],
            answers: [DNSMessage.Record(name: type, ttl: 10, data: .ptr(instance))],
            additionals: [
                DNSMessage.Record(
                    name: instance,
                    ttl: 10,
                    data: .srv(priority: 0, weight: 0, port: 8080, target: host),
                    classAndFlush: 0x8001
                ),
                DNSMessage.Record(name: instance, ttl: 10, data: .txt(["v=1", "path=/sync"]), classAndFlush: 0x8001),
                DNSMessage.Record(name: host, ttl: 10, data: .a([10, 77, 0, 1]), classAndFlush: 0x8001),
            ]
        )
    }

    @Test func aResponseReadsBackAsWritten() throws {
        let message = Self.response()
        #expect(try DNSMessage(decoding: message.encoded()) == message)
    }

    @Test func aResponseDescribesTheServiceItAnswersFor() throws {
        var source = sockaddr_in()
        source.sin_addr = in_addr(s_addr: inet_addr("10.77.0.1"))
        let services = ServiceBrowser.services(in: Self.response(), of: Self.type, from: source)
        #expect(
            services == [
                DiscoveredService(
                    instance: "inkwell-hall-8080-abcdef",
                    host: "10.77.0.1",
                    port: 8080,
                    txt: ["v": "1", "path": "/sync"]
                )
            ]
        )
    }

    /// A name compressed as real responders do: a pointer back to an earlier name.
    @Test func aCompressedNameIsFollowedBackwards() throws {
        var bytes: [UInt8] = [0, 0, 0x84, 0, 0, 1, 0, 1, 0, 0, 0, 0]
        bytes += [8] + Array("_inkwell".utf8) + [4] + Array("_tcp".utf8) + [5] + Array("local".utf8) + [0, 0, 12, 0, 1]
        let data: [UInt8] = [4] + Array("hall".utf8) + [0xC0, 12]
        bytes += [0xC0, 12, 0, 12, 0, 1, 0, 0, 0, 10, 0, UInt8(data.count)] + data
        let message = try DNSMessage(decoding: bytes)
        #expect(message.questions.first?.name == Self.type)
        #expect(message.answers.first?.name == Self.type)
        #expect(message.answers.first?.data == .ptr(Self.type.prefixed(by: "hall")))
    }

    @Test func pointerLoopsAndForwardPointersAreRefused() {
        // A question whose name points at itself, and one that points forwards.
        let loop: [UInt8] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0, 12, 0, 12, 0, 1]
        #expect(throws: DNSError.self) { try DNSMessage(decoding: loop) }
        let forward: [UInt8] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0, 16, 0, 12, 0, 1, 1, 0x61, 0]
        #expect(throws: DNSError.self) { try DNSMessage(decoding: forward) }
        // Two pointers taking turns: 14 → 12 → 14 would loop.
        let pingPong: [UInt8] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0, 14, 0xC0, 12, 0, 12, 0, 1]
        #expect(throws: DNSError.self) { try DNSMessage(decoding: pingPong) }
    }

    @Test func countsLargerThanTheMessageAreRefusedBeforeAnythingIsRead() {
        let lying: [UInt8] = [0, 0, 0x84, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF]
        #expect(throws: DNSError.self) { try DNSMessage(decoding: lying) }
    }

    @Test func everyCutOfAResponseIsRefused() {
        let bytes = Self.response().encoded()
        let accepted = (0..<bytes.count).filter { (try? DNSMessage(decoding: Array(bytes.prefix($0)))) != nil }
        #expect(accepted.isEmpty, "cuts read as whole messages: \(accepted)")
    }

    @Test func randomAndMutatedDatagramsNeverTrap() {
        let seed = SeededGenerator.seedFromEnvironment()
        print("dns fuzz: INKWELL_SEED=\(seed)")
        var generator = SeededGenerator(seed: seed)
        let base = Self.response().encoded()
        var decoded = 0
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            } else {
                bytes = base
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
                        in: 0...255,
                        using: &generator
                    )
                }
            }
            guard let message = try? DNSMessage(decoding: bytes) else { continue }
            decoded += 1
            // What decodes writes out to bytes that read back the same.
            #expect((try? DNSMessage(decoding: message.encoded())) == message, "seed \(seed), round \(round)")
        }
        #expect(decoded > 0)
    }

    /// A responder on this machine answers a one-shot browser on it, by unicast. Under a service type of
    /// its own, so that hubs other tests start meanwhile never find it.
    @Test func aBrowserFindsAnAdvertisedServiceOnThisMachine() throws {
        let instance = "inkwell-test-\(UInt32.random(in: 0...UInt32.max))"
        let advertiser: ServiceAdvertiser
        do {
            advertiser = try ServiceAdvertiser(
                instance: instance,
                type: Self.testType,
                port: 4321,
                txt: ["v=1"],
                logger: Logger(label: "test")
            )
        } catch DiscoveryError.portHeld {
            try #require(ProcessInfo.processInfo.environment["CI"] == nil, "port 5353 is free in CI")
            print("aBrowserFindsAnAdvertisedServiceOnThisMachine: skipped, another mDNS responder holds port 5353")
            return
        }
        defer { advertiser.stop() }
        let found = try ServiceBrowser.browse(Self.testType, timeout: .seconds(3)).filter { $0.instance == instance }
        #expect(found.count == 1 && found.first?.port == 4321 && found.first?.txt["v"] == "1", "\(found)")
    }
}
