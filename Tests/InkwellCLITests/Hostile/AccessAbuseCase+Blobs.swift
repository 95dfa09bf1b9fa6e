import Crypto
import Foundation
import InkwellTesting
import InkwellWire

/// The blob attacks of the access abuse suite:
///
/// 9. a blob flood from 127.0.0.3: rooms minted on one connection, each filled with 1 MiB blobs past its
///    quota (`--room-blob-bytes`), more bytes in all than one address may upload at once: only 201, 413
///    and 429 come back, both refusals appear, what was stored stays within the address's burst and
///    rate, and `/healthz` answers meanwhile;
/// 10. slow request bodies from 127.0.0.4: uploads to the honest board that send their head and a little of the body,
///     then stall: each is answered 408 or closed within `--request-body-timeout`, none holds the server
///     (a plain request answers while they stall), and none leaves a file or a row.
extension AccessAbuse {
    /// The addresses blob attackers come from: neither the honest peers' nor the connection flood's, and
    /// the flood's not the slow bodies' (whose declared lengths the flood's rate would refuse at once).
    static let blobSource = "127.0.0.3"
    static let slowSource = "127.0.0.4"
    /// `--room-blob-bytes` and `--blob-bytes-per-second` of the suite's server; the burst is the server's
    /// default, 64 MiB.
    static let roomBlobBytes = 4 << 20
    static let blobBytesPerSecond = 1 << 20
    static let blobBurst = 64 << 20
    static let floodBlobBytes = 1 << 20
    static let floodRooms = 20
    /// `--request-body-timeout` of the suite's server, in seconds.
    static let requestBodyTimeout = 2

    /// One blob upload over a socket of its own from ``blobSource``: its status, or why there was none.
    static func put(
        _ bytes: [UInt8],
        room: String,
        capability: Capability,
        port: Int
    ) -> (status: Int?, head: String) {
        let hash = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        let head =
            "PUT /rooms/\(room)/blobs/\(hash) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Authorization: Bearer \(capability.text)\r\nContent-Type: application/octet-stream\r\n"
            + "Content-Length: \(bytes.count)\r\nConnection: close\r\n\r\n"
        do {
            let socket = try RawSocket(port: port, source: blobSource)
            defer { socket.close() }
            // The server may answer (413, 429) before the body is read, and close: the rest of the send fails then.
            _ = socket.send(Array(head.utf8))
            _ = socket.send(bytes)
            var received: [UInt8] = []
            let deadline = ContinuousClock.now + .seconds(20)
            let terminator = Array("\r\n\r\n".utf8)
            while received.firstRange(of: terminator) == nil {
                guard case .bytes = socket.receive(into: &received, until: deadline) else { break }
            }
            let text = String(decoding: received.prefix(300), as: UTF8.self)
            let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) }
            return (status, text)
        } catch {
            return (nil, "\(error)")
        }
    }

    // MARK: 9. Blob flood

    static func blobFlood(
        _ target: AbuseTarget,
        ledger: AbuseLedger,
        seed: UInt64,
        during: () -> [String]
    )
        -> AbuseReport
    {
        var report = AbuseReport("9. blob flood from \(blobSource) over \(floodRooms) minted rooms")
        var random = SeededGenerator(seed: seed)
        do {
            let minter = try AbuseConnection.open(port: target.port, source: blobSource, random: &random)
            defer { minter.closeNormally() }
            var rooms: [(name: String, edit: Capability)] = []
            for _ in 0..<floodRooms {
                let name = Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
                let (admin, edit, view) = (Capability.mint(.admin), Capability.mint(.edit), Capability.mint(.view))
                minter.send(.createRoom(room: name, adminHash: admin.hash, editHash: edit.hash, viewHash: view.hash))
                switch minter.next(until: .now + .seconds(10)) {
                case .message(.access(name, .admin, true)):
                    rooms.append((name, edit))
                    ledger.minted(room: name)
                case let event:
                    report.fail("room \(rooms.count) was not made: \(event)")
                }
            }
            guard rooms.count == floodRooms else { return report }
            let started = ContinuousClock.now
            var statuses: [Int: Int] = [:]
            var created = 0
            var others: [String] = []
            var midway: [String] = []
            // One random megabyte, made distinct per upload by a counter in its first bytes: the flood is
            // as fast as the sockets, not as making random bytes.
            var blob = [UInt8](repeating: 0, count: floodBlobBytes)
            for index in blob.indices where index % 8 == 0 {
                withUnsafeBytes(of: random.next()) { word in
                    for (offset, byte) in word.enumerated() where index + offset < blob.count {
                        blob[index + offset] = byte
                    }
                }
            }
            var counter: UInt64 = 0
            for (index, room) in rooms.enumerated() {
                for _ in 0..<(roomBlobBytes / floodBlobBytes + 1) {
                    counter += 1
                    withUnsafeBytes(of: counter) { word in blob.replaceSubrange(0..<8, with: word) }
                    let answer = put(blob, room: room.name, capability: room.edit, port: target.port)
                    guard let status = answer.status else {
                        others.append(answer.head)
                        continue
                    }
                    statuses[status, default: 0] += 1
                    if status == 201 { created += 1 }
                    if ![201, 413, 429].contains(status) { others.append(answer.head) }
                }
                if index == floodRooms / 2 { midway = during() }
            }
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            report.note(
                "\(statuses.values.reduce(0, +)) uploads of 1 MiB in \(elapsed): "
                    + statuses.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")
            )
            report.check(others.isEmpty, "answers other than 201, 413 and 429: \(others.prefix(3))")
            report.check(statuses[413, default: 0] > 0, "no upload was refused for a full room")
            report.check(statuses[429, default: 0] > 0, "no upload was refused for the address's rate")
            // Each room holds at most its quota, and the address at most its burst and what refilled.
            let allowed = blobBurst + Int((Double(blobBytesPerSecond) * (seconds + 1)).rounded(.up))
            report.check(
                created * floodBlobBytes <= allowed,
                "\(created) MiB stored from one address in \(elapsed), over the \(allowed >> 20) MiB it may send"
            )
            report.check(created >= blobBurst / floodBlobBytes / 2, "only \(created) uploads were stored: no flood")
            for problem in midway { report.fail("midway through the flood: \(problem)") }
        } catch {
            report.fail("\(error)")
        }
        return report
    }

    // MARK: 10. Slow bodies

    static let slowUploads = 8

    static func slowBodies(_ target: AbuseTarget, seed: UInt64, during: () -> [String]) -> AbuseReport {
        var report = AbuseReport("10. \(slowUploads) uploads whose bodies stall")
        var random = SeededGenerator(seed: seed)
        let declared = floodBlobBytes
        let hash = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &random)) }.joined()
        let head =
            "PUT /rooms/\(target.room)/blobs/\(hash) HTTP/1.1\r\nHost: 127.0.0.1:\(target.port)\r\n"
            + "Authorization: Bearer \(target.edit.text)\r\nContent-Length: \(declared)\r\n\r\n"
        var sockets: [RawSocket] = []
        defer { for socket in sockets { socket.close() } }
        let started = ContinuousClock.now
        for _ in 0..<slowUploads {
            do {
                let socket = try RawSocket(port: target.port, source: slowSource)
                let sent = socket.send(Array(head.utf8) + [UInt8](repeating: 7, count: 1_024))
                report.check(sent, "a slow upload could not send its head")
                sockets.append(socket)
            } catch {
                report.fail("a slow upload could not connect: \(error)")
            }
        }
        // While they stall, the server answers others at once.
        for problem in during() { report.fail("while bodies stall: \(problem)") }
        let limit = Duration.seconds(requestBodyTimeout) + closeLimit
        var endings: [String] = []
        for socket in sockets {
            var received: [UInt8] = []
            var outcome = socket.receive(into: &received, until: started + limit)
            while case .bytes = outcome { outcome = socket.receive(into: &received, until: started + limit) }
            let status = String(decoding: received.prefix(12), as: UTF8.self)
            let after = ContinuousClock.now - started
            switch outcome {
            case .endOfStream, .reset:
                report.check(
                    received.isEmpty || status.hasPrefix("HTTP/1.1 408"),
                    "a stalled body was answered \(String(decoding: received.prefix(80), as: UTF8.self))"
                )
                report.check(
                    after >= .seconds(requestBodyTimeout) - .milliseconds(100),
                    "a stalled body was ended after \(after), before the body timeout: by something else"
                )
                endings.append("\(received.isEmpty ? "closed" : status.dropFirst(9)) after \(after)")
            default:
                report.fail("a stalled body still held its socket after \(after) (\(outcome))")
            }
        }
        report.note(endings.joined(separator: ", "))
        return report
    }
}
