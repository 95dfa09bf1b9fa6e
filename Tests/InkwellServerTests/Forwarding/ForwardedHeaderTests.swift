import InkwellTesting
import Testing

@testable import InkwellServer

/// What `Forwarded` (RFC 7239) and `X-Forwarded-For` say of a request's hops: addresses where they name
/// one, a hop with no address wherever they do not, and never a trap, whatever a client writes there.
@Suite struct ForwardedHeaderTests {
    static func address(_ text: String) -> ForwardedHop { .address(IPAddress(Substring(text))!) }

    @Test func theRFCsFormsAreRead() {
        let cases: [(String, [ForwardedHop])] = [
            ("for=\"_gazonk\"", [.unnamed]),
            ("For=\"[2001:db8:cafe::17]:4711\"", [Self.address("2001:db8:cafe::17")]),
            ("for=192.0.2.60;proto=http;by=203.0.113.43", [Self.address("192.0.2.60")]),
            ("for=192.0.2.43, for=198.51.100.17", [Self.address("192.0.2.43"), Self.address("198.51.100.17")]),
            ("for=\"192.0.2.43:47011\"", [Self.address("192.0.2.43")]),
            ("for=\"[2001:db8::1]\"", [Self.address("2001:db8::1")]),
            ("for=unknown", [.unnamed]),
            ("for=\"_hidden:_port\", for=\"unknown:1234\"", [.unnamed, .unnamed]),
            ("for=\"[2001:db8::1]:_abc\"", [Self.address("2001:db8::1")]),
            // An element naming no client, or two, names no address; empty elements are skipped.
            ("proto=https;host=example.com", [.unnamed]),
            ("for=192.0.2.1;for=192.0.2.2", [.unnamed]),
            (" ,, for=192.0.2.1 ,;, ", [Self.address("192.0.2.1")]),
            ("for=\"\\1\\9\\2.0.2.1\"", [Self.address("192.0.2.1")]),
            // Quoted strings may hold commas and semicolons.
            ("by=\"a,b;c\";for=192.0.2.9", [Self.address("192.0.2.9")]),
        ]
        for (value, hops) in cases {
            #expect(ForwardedElements.hops([value]) == hops, "\(value)")
        }
        #expect(
            ForwardedElements.hops(["for=192.0.2.1", "for=\"[::1]\""]) == [
                Self.address("192.0.2.1"), Self.address("::1"),
            ],
            "field lines in order"
        )
    }

    /// From the first byte that breaks the grammar the rest of the line is one hop with no address: an
    /// unclosed quote hides where a proxy's elements begin.
    @Test func whatBreaksTheGrammarEndsTheLineInAHopWithNoAddress() {
        let cases: [(String, [ForwardedHop])] = [
            ("for=192.0.2.1, for=\"192.0.2.2, for=192.0.2.3", [Self.address("192.0.2.1"), .unnamed]),
            ("for=192.0.2.1:80", [.unnamed]),
            ("for=[::1]", [.unnamed]),
            ("for=", [.unnamed]),
            ("=192.0.2.1", [.unnamed]),
            ("for 192.0.2.1", [.unnamed]),
            ("for=\"192.0.2.1\"x", [.unnamed]),
            ("for=\"192.0.2.1\u{7}\"", [.unnamed]),
            ("for=192.0.2.1, ü=1, for=192.0.2.2", [Self.address("192.0.2.1"), .unnamed]),
        ]
        for (value, hops) in cases {
            #expect(ForwardedElements.hops([value]) == hops, "\(value)")
        }
    }

    @Test func xForwardedForListsNodesWithOrWithoutPorts() {
        #expect(
            ForwardedHop.xForwardedFor(["203.0.113.195, 2001:db8:85a3::8a2e:370:7334", " 198.51.100.7:41237 ,,"])
                == [
                    Self.address("203.0.113.195"), Self.address("2001:db8:85a3::8a2e:370:7334"),
                    Self.address("198.51.100.7"),
                ]
        )
        #expect(ForwardedHop.xForwardedFor(["[2001:db8::5]:443"]) == [Self.address("2001:db8::5")])
        #expect(ForwardedHop.xForwardedFor(["::ffff:192.0.2.5"]) == [Self.address("192.0.2.5")])
        for garbage in [
            "unknown", "_hidden", "example.com", "1.2.3.4:", "1.2.3.4:123456", "1.2.3.4:80:80", "[::1", "[::1]x",
            "[1.2.3.4]", "::1]", "1.2.3", "\"1.2.3.4\"", "fe80::1%eth0", "1.2.3.4/8", "١.٢.٣.٤",
        ] {
            #expect(ForwardedHop.xForwardedFor([garbage]) == [.unnamed], "\(garbage)")
        }
    }

    /// Seeded bytes from the headers' own alphabet and beyond: every value is read without a trap, into no
    /// more hops than it has list items.
    @Test func hostileBytesAreReadWithoutATrap() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("ForwardedHeaderTests seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let alphabet = Array("for=\"[]:;,_\\ \t0123456789abcdefABCDEF.unknown".utf8) + [0, 0x7f, 0x80, 0xc3, 0xff]
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...200, using: &random)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
            let value = String(decoding: bytes, as: UTF8.self)
            let items = bytes.count { $0 == UInt8(ascii: ",") } + 1
            #expect(ForwardedElements.hops([value]).count <= items, "\(bytes)")
            #expect(ForwardedHop.xForwardedFor([value]).count <= items, "\(bytes)")
        }
    }

    @Test func manyHopsAndHugeValuesAreReadInOnePass() {
        let hops = 100_000
        let forwarded = Array(repeating: "for=192.0.2.1", count: hops).joined(separator: ",")
        #expect(ForwardedElements.hops([forwarded]).count == hops)
        let forwardedFor = Array(repeating: "192.0.2.1", count: hops).joined(separator: ", ")
        #expect(ForwardedHop.xForwardedFor([forwardedFor]).count == hops)
        let huge = String(repeating: "9", count: 1 << 20)
        #expect(ForwardedElements.hops(["for=" + huge]) == [.unnamed])
        #expect(ForwardedElements.hops(["for=\"" + huge]) == [.unnamed])
        #expect(ForwardedHop.xForwardedFor([huge]) == [.unnamed])
    }
}
