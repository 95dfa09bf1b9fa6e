import Foundation
public import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Answers DNS-SD questions for one service on the local network: a minimal mDNS responder (RFC 6762,
/// RFC 6763) for `_inkwell._tcp.local`, on a thread of its own.
///
/// To a question for the service type it answers with the instance's PTR, SRV, TXT and A records: by
/// unicast to a one-shot querier (one asking from a port other than 5353, as ``ServiceBrowser`` does),
/// by multicast otherwise. It announces itself twice when it starts. It reads only questions, each
/// datagram as hostile: what does not decode is dropped.
public final class ServiceAdvertiser: Sendable {
    /// The service type Inkwell hubs advertise.
    public static let serviceType = DNSName("_inkwell._tcp.local")

    public let instance: String
    /// The service type answered for (``serviceType`` unless another was given).
    public let type: DNSName
    public let port: UInt16
    private let txt: [String]
    private let socket: UDPSocket
    private let stopped = Atomic(false)
    private let logger: Logger

    /// Starts answering for `instance` (a readable name, unique on the network) on `port`.
    ///
    /// - Throws: ``DiscoveryError`` when port 5353 cannot be bound or no interface joins the mDNS group.
    public init(
        instance: String,
        type: DNSName = ServiceAdvertiser.serviceType,
        port: UInt16,
        txt: [String],
        logger: Logger
    ) throws {
        self.instance = instance
        self.type = type
        self.port = port
        self.txt = txt
        self.logger = logger
        socket = try UDPSocket.open(port: UDPSocket.port, joining: true)
        let thread = Thread { [self] in serve() }
        thread.name = "inkwell-mdns"
        thread.start()
    }

    /// Stops answering: the thread ends within a fifth of a second.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    var instanceName: DNSName { type.prefixed(by: instance) }
    var hostName: DNSName { DNSName(labels: [Self.hostLabel, "local"]) }

    /// This machine's name as a label.
    public static var hostLabel: String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count)
        let name = String(cString: buffer).split(separator: ".").first.map(String.init) ?? "inkwell"
        return name.isEmpty ? "inkwell" : name
    }

    /// The records that describe the service, for a reply with `ttl`.
    func records(ttl: UInt32) -> (answers: [DNSMessage.Record], additionals: [DNSMessage.Record]) {
        let answers = [DNSMessage.Record(name: type, ttl: ttl, data: .ptr(instanceName))]
        var additionals = [
            DNSMessage.Record(
                name: instanceName,
                ttl: ttl,
                data: .srv(priority: 0, weight: 0, port: port, target: hostName),
                classAndFlush: 0x8001
            ),
            DNSMessage.Record(name: instanceName, ttl: ttl, data: .txt(txt), classAndFlush: 0x8001),
        ]
        for interface in NetworkInterfaces.ipv4() where interface.address.s_addr != inet_addr("127.0.0.1") {
            let value = UInt32(bigEndian: interface.address.s_addr)
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32($0))) }
            additionals.append(DNSMessage.Record(name: hostName, ttl: ttl, data: .a(bytes), classAndFlush: 0x8001))
        }
        return (answers, additionals)
    }

    private func serve() {
        let announcement = records(ttl: 120)
        let announce = DNSMessage(
            flags: DNSMessage.responseFlags,
            answers: announcement.answers,
            additionals: announcement.additionals
        )
        socket.multicast(announce.encoded())
        var announced = 1
        let started = ContinuousClock.now
        while !stopped.load(ordering: .relaxed) {
            if announced == 1, ContinuousClock.now - started > .seconds(1) {
                socket.multicast(announce.encoded())
                announced = 2
            }
            guard let (bytes, source) = socket.receive(within: 200) else { continue }
            guard let query = try? DNSMessage(decoding: bytes), !query.isResponse else { continue }
            let asked = query.questions.contains { question in
                (question.type == DNSType.ptr || question.type == DNSType.any) && question.name == type
                    || question.name == instanceName
            }
            guard asked else { continue }
            let legacy = UInt16(bigEndian: source.sin_port) != UDPSocket.port
            // A one-shot querier gets a unicast reply carrying its question and id, with short TTLs.
            let reply = records(ttl: legacy ? 10 : 120)
            let answer = DNSMessage(
                id: legacy ? query.id : 0,
                flags: DNSMessage.responseFlags,
                questions: legacy ? query.questions : [],
                answers: reply.answers,
                additionals: reply.additionals
            )
            if legacy {
                socket.send(answer.encoded(), to: source)
            } else {
                socket.multicast(answer.encoded())
            }
            logger.debug("answered an mDNS question", metadata: ["from": "\(NetworkInterfaces.text(source.sin_addr))"])
        }
        // A goodbye: TTL 0 tells caches the service is gone.
        let goodbye = records(ttl: 0)
        socket.multicast(DNSMessage(flags: DNSMessage.responseFlags, answers: goodbye.answers).encoded())
    }
}
