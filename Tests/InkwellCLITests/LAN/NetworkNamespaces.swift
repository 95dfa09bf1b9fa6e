import Foundation
import InkwellTesting

/// Two network namespaces joined by a veth pair, as two machines on one LAN: made by the tests that need
/// them (`ip netns add`, which needs root) and removed when they end.
final class NetworkNamespaces: Sendable {
    let names: [String]
    private let ip: URL

    /// Makes the pair, `10.77.N.1/24` and `10.77.N.2/24`; `nil` when this machine does not let the
    /// process make namespaces (not root, or a container without the capability), with the reason.
    static func make() -> Result<NetworkNamespaces, ChildProcess.Failure> {
        guard let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip"].first(where: FileManager.default.isExecutableFile)
        else {
            return .failure(ChildProcess.Failure("no ip command (iproute2)"))
        }
        let tag = "\(getpid() % 10_000)\(Int.random(in: 10...99))"
        let names = ["ink\(tag)a", "ink\(tag)b"]
        let namespaces = NetworkNamespaces(names: names, ip: URL(fileURLWithPath: ip))
        let subnet = Int.random(in: 1...250)
        let steps: [[String]] = [
            ["netns", "add", names[0]], ["netns", "add", names[1]],
            ["link", "add", "v\(tag)a", "type", "veth", "peer", "name", "v\(tag)b"],
            ["link", "set", "v\(tag)a", "netns", names[0]], ["link", "set", "v\(tag)b", "netns", names[1]],
            ["-n", names[0], "addr", "add", "10.77.\(subnet).1/24", "dev", "v\(tag)a"],
            ["-n", names[1], "addr", "add", "10.77.\(subnet).2/24", "dev", "v\(tag)b"],
            ["-n", names[0], "link", "set", "v\(tag)a", "up"], ["-n", names[1], "link", "set", "v\(tag)b", "up"],
            ["-n", names[0], "link", "set", "lo", "up"], ["-n", names[1], "link", "set", "lo", "up"],
        ]
        for step in steps {
            if let failure = namespaces.run(step) { return .failure(failure) }
        }
        return .success(namespaces)
    }

    private init(names: [String], ip: URL) {
        self.names = names
        self.ip = ip
    }

    deinit {
        // Deleting a namespace deletes its end of the veth pair, and with it the other end.
        for name in names { _ = run(["netns", "del", name]) }
    }

    /// `inkwell ARGUMENTS` run inside namespace `index`.
    func inkwell(_ index: Int, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(["netns", "exec", names[index], ChildProcess.executable().path] + arguments, executable: ip)
    }

    private func run(_ arguments: [String]) -> ChildProcess.Failure? {
        guard let result = try? InkwellProcess.run(arguments, binary: ip) else {
            return ChildProcess.Failure("ip \(arguments.joined(separator: " ")) did not run")
        }
        return result.status == 0
            ? nil : ChildProcess.Failure("ip \(arguments.joined(separator: " ")): \(result.standardError)")
    }
}
