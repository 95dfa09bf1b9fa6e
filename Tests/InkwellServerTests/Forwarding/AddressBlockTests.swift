import Testing

@testable import InkwellServer

/// `--trusted-proxy` takes addresses and blocks, IPv4 and IPv6, and refuses anything else at start.
@Suite struct AddressBlockTests {
    @Test func addressesAndBlocksAreRead() throws {
        let cases: [(text: String, inside: [String], outside: [String])] = [
            ("127.0.0.1", ["127.0.0.1", "::ffff:127.0.0.1"], ["127.0.0.2", "::1"]),
            ("10.0.0.0/8", ["10.0.0.0", "10.255.255.255", "::ffff:10.1.2.3"], ["11.0.0.0", "9.255.255.255"]),
            ("192.0.2.128/25", ["192.0.2.128", "192.0.2.255"], ["192.0.2.127", "192.0.3.128"]),
            ("0.0.0.0/0", ["1.2.3.4", "255.255.255.255"], ["::1", "2001:db8::1"]),
            ("::1", ["::1"], ["::2", "127.0.0.1"]),
            ("fd00::/8", ["fd12:3456::1", "fdff:ffff::"], ["fe00::", "fc00::1"]),
            ("2001:db8:aa:bb::/64", ["2001:db8:aa:bb:1:2:3:4"], ["2001:db8:aa:bc::1"]),
            ("::ffff:10.0.0.0/104", ["10.9.9.9"], ["11.0.0.0"]),
        ]
        for (text, inside, outside) in cases {
            let block = try AddressBlock(text)
            for address in inside {
                #expect(block.contains(try #require(IPAddress(Substring(address)))), "\(text) ∋ \(address)")
            }
            for address in outside {
                #expect(!block.contains(try #require(IPAddress(Substring(address)))), "\(text) ∌ \(address)")
            }
        }
        #expect(try AddressBlock("10.0.0.0/8").description == "10.0.0.0/8")
        #expect(try AddressBlock("::1").description == "::1/128")
    }

    @Test func anythingElseIsRefusedSayingWhy() {
        for text in [
            "", "localhost", "proxy.example.com", "10.0.0", "10.0.0.256", "010.0.0.1", "10.0.0.0/", "10.0.0.0/33",
            "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/08x", "10.0.0.0/8/8", "::1/129", "[::1]", "fe80::1%eth0",
            "1.2.3.4:80", " 127.0.0.1", "127.0.0.1\n", String(repeating: "1", count: 10_000),
        ] {
            #expect(throws: ServerConfigurationError.trustedProxy(text), "\(text.debugDescription)") {
                try AddressBlock(text)
            }
        }
        #expect(throws: ServerConfigurationError.trustedProxy("10.0.0.1/8", correction: "10.0.0.0/8")) {
            try AddressBlock("10.0.0.1/8")
        }
        #expect(throws: ServerConfigurationError.trustedProxy("2001:db8::1/32", correction: "2001:db8::/32")) {
            try AddressBlock("2001:db8::1/32")
        }
        #expect(
            ServerConfigurationError.trustedProxy("10.0.0.1/8", correction: "10.0.0.0/8").description
                == "the trusted proxy 10.0.0.1/8 has bits set past its prefix: did you mean 10.0.0.0/8?"
        )
    }
}
