import Foundation
import InkwellBoardTesting
import InkwellClient
import InkwellSync
import InkwellTesting
import InkwellWire
import Synchronization

/// The board the attacks are aimed at, as `inkwell share` made it, and the server's options they test.
struct AbuseTarget: Sendable {
    let port: Int
    let room: String
    let edit: Capability
    /// The view link in force: replaced by the rotation case.
    var view: Capability
    let key: RoomKey
    /// The store that made the board, which holds its admin capability.
    let adminData: String
    /// `--connections-per-address` as the server was started.
    let connectionsPerAddress: Int

    var address: String { "http://127.0.0.1:\(port)" }
}

/// What the attacks sent that the server's log must, or must not, hold once it stops.
final class AbuseLedger: Sendable {
    private struct Contents {
        var refused: [PackID: String] = [:]
        var wrongKey: [PackID] = []
        var guessedRooms: Set<String> = []
        var guessingDevices: Set<ReplicaID> = []
        var minted: Set<String> = []
    }

    private let contents = Mutex(Contents())

    /// A pack the server refused, or must never have got to read: it must not be stored.
    func refused(_ pack: PackID, by name: String) { contents.withLock { $0.refused[pack] = name } }
    /// A pack sealed with another key than the room's: the server cannot tell, so it stores it.
    func wrongKey(_ pack: PackID) { contents.withLock { $0.wrongKey.append(pack) } }
    func guessed(room: String) { contents.withLock { _ = $0.guessedRooms.insert(room) } }
    func guessing(device: ReplicaID) { contents.withLock { _ = $0.guessingDevices.insert(device) } }
    /// A room an attacker registered (the blob flood's): the log may hold it.
    func minted(room: String) { contents.withLock { _ = $0.minted.insert(room) } }

    var refusedPacks: [PackID: String] { contents.withLock { $0.refused } }
    var wrongKeyPacks: [PackID] { contents.withLock { $0.wrongKey } }
    var guessedRooms: Set<String> { contents.withLock { $0.guessedRooms } }
    var guessingDevices: Set<ReplicaID> { contents.withLock { $0.guessingDevices } }
    var mintedRooms: Set<String> { contents.withLock { $0.minted } }
}

/// One case's outcome: what it saw, and what was wrong with it.
struct AbuseReport: Sendable {
    let name: String
    private(set) var problems: [String] = []
    private(set) var observed: [String] = []

    init(_ name: String) {
        self.name = name
    }

    mutating func check(_ condition: Bool, _ problem: @autoclosure () -> String) {
        if !condition { problems.append(problem()) }
    }

    mutating func fail(_ problem: String) { problems.append(problem) }

    mutating func note(_ line: String) { observed.append(line) }
}

/// The attacks, each run on a thread of its own against the real server (they block on sockets), each
/// returning what it observed and what was wrong. A case checks that its attack was made (the grant it
/// abuses, the bytes sent) before it judges the answer:
///
/// 1. a view link pushing, and sending presence (and a push to the room with no subscription): error
///    `viewOnly`, close 4003, nothing stored;
/// 2. a view link replaced by `inkwell share ROOM --rotate view`: its holder is closed with
///    `capabilityRevoked`, 4004; subscribing with it again is a non-fatal `notAllowed`;
/// 3. the edit link with another room key: the server cannot tell and stores the packs (acknowledged);
///    the honest peers keep them aside, and their boards leave their strokes out;
/// 4. a bit flipped in a sealed body after signing: `badSignature`, close 1007, nothing stored;
/// 5. 10,000 subscribes to guessed rooms and capabilities on one connection: 256 refused, then
///    `rateLimited`, close 1008; the log keeps nothing of the names;
/// 6. 1,000 upgrades from 127.0.0.2: `--connections-per-address` of them upgraded, the rest 429, while
///    127.0.0.1 connects as usual; closing them frees the slots;
/// 7. `Host: evil.example` (a DNS-rebinding page) for the sync socket and the page: 421; a foreign
///    `Origin` under the server's own name: 400 for the handshake, 403 for a plain `GET /sync`;
/// 8. presence at 2,000/s from an editor: what a viewer receives stays within the limiter's burst
///    and rate, the server counts the rest dropped, and the connection stays open;
/// 9. and 10., a blob flood and slow bodies: AccessAbuseCase+Blobs.swift.
enum AccessAbuse {
    /// Refused subscriptions, rooms made and rotations tried per connection before `rateLimited`: the
    /// README's limits table.
    static let roomRequestLimit = 256
    /// Presence per second per connection, and the burst (twice as many): the README's limits table.
    static let presencePerSecond = 60
    static let presenceBurst = 120
    /// How long a refused connection may take to be closed, from the offending frame to the server's
    /// FIN, on a loaded 2-core machine (the close timeout is 0.5 s).
    static let closeLimit: Duration = .seconds(3)

    /// Error codes (CloseCode.swift, `ErrorCode`).
    static let rateLimited = ErrorCode.rateLimited.rawValue
    static let badSignature = ErrorCode.badSignature.rawValue
    static let noSuchRoom = ErrorCode.noSuchRoom.rawValue
    static let notAllowed = ErrorCode.notAllowed.rawValue
    static let viewOnly = ErrorCode.viewOnly.rawValue
    static let capabilityRevoked = ErrorCode.capabilityRevoked.rawValue

    /// A sealed pack of strokes by `author`, as an honest editor would push it.
    static func strokes(
        _ count: Int,
        room: String,
        author: AuthorKey,
        firstSeq: UInt64 = 1,
        key: RoomKey,
        random: inout SeededGenerator
    ) -> [UInt8] {
        let changes = (0..<UInt64(count)).map { offset in
            TestStrokes.change(
                replica: author.replica,
                seq: firstSeq + offset,
                points: Int.random(in: 2...30, using: &random),
                using: &random
            )
        }
        return PackCodec.encode(Pack(room: room, changes: changes), signedBy: author, sealedWith: key)
    }

    /// Checks that `ending` is the fatal error `code` and the close `closeCode`, and that the socket went.
    static func expectClosed(
        _ ending: AbuseConnection.Ending,
        error code: UInt32,
        close closeCode: UInt16,
        _ report: inout AbuseReport,
        _ what: String
    ) {
        report.check(ending.fatalCodes == [code], "\(what): expected fatal error \(code), got \(ending)")
        report.check(ending.closeCode == closeCode, "\(what): expected close \(closeCode), got \(ending)")
        if let ended = ending.endedAfter {
            report.check(ended <= closeLimit, "\(what): the socket was closed after \(ended), over \(closeLimit)")
        } else {
            report.fail("\(what): the server did not drop the socket within \(closeLimit): \(ending)")
        }
    }

    // MARK: 1. A view link used to push and to send presence

    static func viewOnly(_ target: AbuseTarget, ledger: AbuseLedger, seed: UInt64) -> AbuseReport {
        var report = AbuseReport("1. view link pushing and sending presence")
        var random = SeededGenerator(seed: seed)
        for attempt in ["push", "presence", "push unsubscribed"] {
            do {
                let connection = try AbuseConnection.open(port: target.port, random: &random)
                if attempt != "push unsubscribed" {
                    let answer = try connection.subscribe(room: target.room, capability: target.view.text)
                    guard case .access(target.room, .view, true) = answer else {
                        report.fail("\(attempt): subscribing with the view link was answered \(answer)")
                        continue
                    }
                }
                let message: ClientMessage
                if attempt == "presence" {
                    let presence = Presence(
                        room: target.room,
                        device: connection.device!,
                        name: "viewer",
                        colour: 0x2E86_ABFF,
                        cursor: (120, 80)
                    )
                    message = .presence(presence.sealed(with: target.key))
                } else {
                    // A viewer holds the room's key, so its pack is sealed properly: only its rights are wrong.
                    let pack = strokes(
                        1,
                        room: target.room,
                        author: AuthorKey(using: &random),
                        key: target.key,
                        random: &random
                    )
                    ledger.refused(PackID(of: pack), by: report.name)
                    message = .push(room: target.room, pack: pack)
                }
                let sentAt = ContinuousClock.now
                report.check(connection.send(message), "\(attempt): the frame could not be sent")
                let ending = connection.awaitEnding(limit: closeLimit + .seconds(2), since: sentAt)
                connection.socket.close()
                expectClosed(ending, error: viewOnly, close: CloseCode.viewOnly.rawValue, &report, attempt)
                report.check(ending.acks.isEmpty, "\(attempt): the server acknowledged \(ending.acks)")
                report.note("\(attempt): \(ending)")
            } catch {
                report.fail("\(attempt): \(error)")
            }
        }
        return report
    }

    // MARK: 2. An old view link after rotation

    /// Returns the new view capability too, which the other cases use from then on.
    static func rotation(_ target: AbuseTarget, seed: UInt64) -> (AbuseReport, Capability?) {
        var report = AbuseReport("2. old view link after rotation")
        var random = SeededGenerator(seed: seed)
        do {
            let holder = try AbuseConnection.open(port: target.port, random: &random)
            try holder.join(room: target.room, capability: target.view, rights: .view)
            let rotated = try InkwellProcess.run([
                "share", target.room, "--rotate", "view", "--server", target.address, "--data", target.adminData,
            ])
            let rotatedAt = ContinuousClock.now
            let links = rotated.standardOutput.split(separator: "\n").map { String($0) }
            guard rotated.status == 0, links.count == 2, let edit = RoomLink(String(links[0].dropFirst(5))),
                let view = RoomLink(String(links[1].dropFirst(5))), let newView = view.capability
            else {
                report.fail(
                    "share --rotate view failed (\(rotated.status)): \(rotated.standardOutput) \(rotated.standardError)"
                )
                return (report, nil)
            }
            report.check(edit.capability == target.edit, "the rotation of the view link changed the edit link")
            report.check(newView.kind == .view && newView != target.view, "the view link was not replaced: \(view)")
            report.check(view.key == target.key, "the rotation changed the room's key")

            // The connection that used the old link is closed (it may have been before share returned).
            let ending = holder.awaitEnding(limit: closeLimit + .seconds(2), since: rotatedAt)
            holder.socket.close()
            expectClosed(
                ending,
                error: capabilityRevoked,
                close: CloseCode.capabilityRevoked.rawValue,
                &report,
                "holder of the old link"
            )
            report.note("holder of the old view link: \(ending)")

            // The old link again, on a new connection: refused, and only the subscription is.
            let again = try AbuseConnection.open(port: target.port, random: &random)
            let refusal = try again.subscribe(room: target.room, capability: target.view.text)
            report.check(
                refusal == .error(code: notAllowed, message: messageOf(refusal), fatal: false, room: target.room),
                "subscribing again with the old link was answered \(refusal), not a non-fatal notAllowed"
            )
            let alive = again.ping()
            report.check(alive.answered, "a refused subscription ended the connection: \(alive.seen)")
            let renewed = try again.subscribe(room: target.room, capability: newView.text)
            report.check(
                renewed == .access(room: target.room, rights: .view, guarded: true),
                "the new view link was answered \(renewed)"
            )
            again.closeNormally()
            report.note("old link again: \(refusal); the connection answered a ping; the new link: \(renewed)")
            return (report, newView)
        } catch {
            report.fail("\(error)")
            return (report, nil)
        }
    }

    private static func messageOf(_ message: ServerMessage) -> String {
        if case .error(_, let text, _, _) = message { text } else { "" }
    }

    // MARK: 3. The edit capability with another room key

    static func wrongKey(_ target: AbuseTarget, ledger: AbuseLedger, seed: UInt64) -> AbuseReport {
        var report = AbuseReport("3. edit link with another room key")
        var random = SeededGenerator(seed: seed)
        do {
            let connection = try AbuseConnection.open(port: target.port, random: &random)
            try connection.join(room: target.room, capability: target.edit, rights: .edit)
            let otherKey = RoomKey.generate(using: &random)
            report.check(otherKey.id != target.key.id, "the other key has the room key's id")
            let author = AuthorKey(using: &random)
            var packs: [[UInt8]] = []
            for index in 0..<3 {
                let pack = strokes(
                    1,
                    room: target.room,
                    author: author,
                    firstSeq: UInt64(index + 1),
                    key: otherKey,
                    random: &random
                )
                // Real strokes under the other key; the room's key finds a key id that is not its own.
                let opened = try? PackCodec.decode(pack, room: target.room, key: otherKey)
                report.check(opened?.changes.count == 1, "a wrong-key pack does not open with its own key")
                do {
                    _ = try PackCodec.decode(pack, room: target.room, key: target.key)
                    report.fail("a pack sealed with another key opened with the room's")
                } catch {
                    report.check(error == .wrongKey, "the room's key refused a wrong-key pack as \(error)")
                }
                packs.append(pack)
                ledger.wrongKey(PackID(of: pack))
            }
            report.check(
                connection.socket.send(packs.flatMap { connection.frame(.push(room: target.room, pack: $0)) }),
                "the pushes could not be sent"
            )
            let ids = Set(packs.map { PackID(of: $0) })
            let (acked, errors) = connection.awaitAcks(ids)
            report.check(acked == ids, "the server acknowledged \(acked.count) of \(ids.count) wrong-key packs")
            report.check(errors.isEmpty, "errors: \(errors)")
            connection.closeNormally()
            report.note(
                "\(acked.count) of \(ids.count) packs sealed with another key acknowledged, \(errors.count) errors"
            )
        } catch {
            report.fail("\(error)")
        }
        return report
    }

    // MARK: 4. Flipped bits in a sealed body

    static func flippedBits(_ target: AbuseTarget, ledger: AbuseLedger, seed: UInt64) -> AbuseReport {
        var report = AbuseReport("4. flipped bits in a sealed body")
        var random = SeededGenerator(seed: seed)
        do {
            let connection = try AbuseConnection.open(port: target.port, random: &random)
            try connection.join(room: target.room, capability: target.edit, rights: .edit)
            let author = AuthorKey(using: &random)
            let original = strokes(2, room: target.room, author: author, key: target.key, random: &random)
            guard let body = ProtobufScan.field(4, in: original), body.count > 16 else {
                report.fail("no sealed body in the pack")
                return report
            }
            var flipped = original
            let index = Int.random(in: body, using: &random)
            let bit = Int.random(in: 0..<8, using: &random)
            flipped[index] ^= UInt8(1) << bit
            report.check(
                (try? PackCodec.validate(original, room: target.room)) != nil,
                "the pack before the flip is not valid"
            )
            do {
                _ = try PackCodec.decode(flipped, room: target.room, key: target.key)
                report.fail("the flipped pack opened")
            } catch {
                report.check(error == .badSignature, "the flipped pack is refused as \(error), not badSignature")
            }
            // A valid push right behind it, in the same write: the connection must not live to store it.
            let behind = strokes(1, room: target.room, author: author, firstSeq: 3, key: target.key, random: &random)
            ledger.refused(PackID(of: flipped), by: report.name)
            ledger.refused(PackID(of: original), by: report.name)
            ledger.refused(PackID(of: behind), by: report.name)
            let sentAt = ContinuousClock.now
            report.check(
                connection.send(.push(room: target.room, pack: flipped), .push(room: target.room, pack: behind)),
                "the pushes could not be sent"
            )
            let ending = connection.awaitEnding(limit: closeLimit + .seconds(2), since: sentAt)
            connection.socket.close()
            expectClosed(ending, error: badSignature, close: CloseCode.invalidPayload.rawValue, &report, "flipped pack")
            report.check(ending.acks.isEmpty, "the server acknowledged \(ending.acks)")
            report.note("bit \(bit) of byte \(index - body.lowerBound) of a \(body.count)-byte sealed body: \(ending)")
        } catch {
            report.fail("\(error)")
        }
        return report
    }

    // MARK: 5. Ten thousand subscribes on one connection

    static let guesses = 10_000

    static func guessing(_ target: AbuseTarget, ledger: AbuseLedger, seed: UInt64) -> AbuseReport {
        var report = AbuseReport("5. \(guesses) subscribes to guessed rooms and capabilities")
        var random = SeededGenerator(seed: seed)
        do {
            let connection = try AbuseConnection.open(port: target.port, random: &random)
            ledger.guessing(device: connection.device!)
            // Nine in ten name a random room; the tenth the real room, with a random capability of any kind.
            var rooms: [String] = []
            var chunks: [[UInt8]] = []
            var chunk: [UInt8] = []
            for index in 0..<guesses {
                let room = index % 10 == 9 ? target.room : RoomLink.newRoomID(using: &random)
                if room != target.room { ledger.guessed(room: room) }
                let kind = Capability.Kind.allCases[Int.random(in: 0..<3, using: &random)]
                let capability = Capability.mint(kind, using: &random)
                rooms.append(room)
                chunk += connection.frame(.subscribe(room: room, after: 0, capability: capability.text))
                if (index + 1) % 250 == 0 {
                    chunks.append(chunk)
                    chunk = []
                }
            }
            // Sent from another thread while this one reads, as a client that never waits for answers.
            let writes = chunks
            let writer = Blocking.Background { () -> Int in
                var sent = 0
                for chunk in writes {
                    guard connection.socket.send(chunk) else { break }
                    sent += 250
                }
                return sent
            }
            let ending = connection.awaitEnding(limit: .seconds(20))
            let sent = writer.wait()
            connection.socket.close()
            let refusals = ending.errors.filter { !$0.fatal }
            report.check(sent > roomRequestLimit, "only \(sent) subscribes were sent")
            report.check(
                refusals.count == roomRequestLimit,
                "\(refusals.count) subscriptions were refused before the close, not \(roomRequestLimit)"
            )
            let expected = rooms.prefix(refusals.count).map { $0 == target.room ? notAllowed : noSuchRoom }
            report.check(
                refusals.map(\.room) == Array(rooms.prefix(refusals.count)),
                "the refusals name other rooms than the first subscribes, in another order"
            )
            report.check(refusals.map(\.code) == expected, "refusal codes \(Set(refusals.map(\.code)))")
            report.check(ending.accesses.isEmpty, "\(ending.accesses.count) guesses were granted")
            report.check(ending.fatalCodes == [rateLimited], "expected one fatal rateLimited, got \(ending)")
            report.check(ending.closeCode == CloseCode.policyViolation.rawValue, "expected close 1008, got \(ending)")
            report.check(ending.endedAfter != nil, "the server did not drop the socket: \(ending)")
            let notAllowedCount = refusals.filter { $0.code == notAllowed }.count
            report.note(
                "\(sent) subscribes written before the server dropped the socket; \(refusals.count) refused "
                    + "(\(refusals.count - notAllowedCount) noSuchRoom, \(notAllowedCount) notAllowed), then \(ending)"
            )
        } catch {
            report.fail("\(error)")
        }
        return report
    }

    // MARK: 6. A thousand connections from one address

    static let flood = 1_000
    static let floodSource = "127.0.0.2"

    /// `during` runs while the flooding address holds all its slots, on this thread: the test's checks of
    /// the honest side then.
    static func connectionFlood(
        _ target: AbuseTarget,
        seed: UInt64,
        during: () -> [String]
    ) -> AbuseReport {
        var report = AbuseReport("6. \(flood) connections from \(floodSource)")
        var random = SeededGenerator(seed: seed)
        let started = ContinuousClock.now
        // Four threads open a quarter each, as fast as the server answers.
        let threads = (0..<4).map { _ in
            let seed = random.next()
            return Blocking.Background { () -> (held: [AbuseConnection], tooMany: Int, others: [String]) in
                var random = SeededGenerator(seed: seed)
                var held: [AbuseConnection] = []
                var tooMany = 0
                var others: [String] = []
                for _ in 0..<(flood / 4) {
                    do {
                        switch try AbuseConnection.upgrade(port: target.port, source: floodSource, random: &random) {
                        case .success(let connection):
                            // Past hello, so the hello deadline does not free the slot while the flood goes on.
                            try connection.hello(device: ReplicaID(using: &random))
                            held.append(connection)
                        case .failure(let refusal) where refusal.status == 429:
                            tooMany += 1
                        case .failure(let refusal):
                            others.append("\(refusal)")
                        }
                    } catch {
                        others.append("\(error)")
                    }
                }
                return (held, tooMany, others)
            }
        }
        let results = threads.map { $0.wait() }
        let held = results.flatMap(\.held)
        let tooMany = results.map(\.tooMany).reduce(0, +)
        let others = results.flatMap(\.others)
        let flooded = ContinuousClock.now - started
        report.check(
            held.count == target.connectionsPerAddress,
            "\(held.count) connections were upgraded, not --connections-per-address \(target.connectionsPerAddress)"
        )
        report.check(tooMany == flood - target.connectionsPerAddress, "\(tooMany) upgrades were answered 429")
        report.check(others.isEmpty, "\(others.count) other answers, such as \(others.prefix(3))")

        // While the address is full: another connection from it is still refused, one from 127.0.0.1 is
        // not, and the test's honest side is checked.
        let oneMore = try? AbuseConnection.upgrade(port: target.port, source: floodSource, random: &random)
        if case .failure(let refusal) = oneMore {
            report.check(refusal.status == 429, "one more from \(floodSource) was answered \(refusal)")
        } else {
            report.fail(
                "one more connection from \(floodSource) was upgraded, or failed: \(String(describing: oneMore))"
            )
        }
        do {
            let honest = try AbuseConnection.open(port: target.port, random: &random)
            let granted = try honest.subscribe(room: target.room, capability: target.view.text)
            report.check(
                granted == .access(room: target.room, rights: .view, guarded: true),
                "a connection from 127.0.0.1 subscribing with the view link was answered \(granted)"
            )
            honest.closeNormally()
        } catch {
            report.fail("a connection from 127.0.0.1 was refused while \(floodSource) was full: \(error)")
        }
        for problem in during() { report.fail(problem) }

        // Closing them frees the slots.
        for connection in held { connection.socket.close() }
        var freed = false
        let deadline = ContinuousClock.now + .seconds(5)
        while !freed, ContinuousClock.now < deadline {
            if case .success(let connection) = try? AbuseConnection.upgrade(
                port: target.port,
                source: floodSource,
                random: &random
            ) {
                freed = true
                connection.closeNormally()
            } else {
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        report.check(freed, "\(floodSource) could not connect again within 5 s of closing its connections")
        report.note(
            "\(held.count) upgraded (and said hello), \(tooMany) answered 429, \(others.count) other, in \(flooded); "
                + "127.0.0.1 connected and subscribed meanwhile; \(floodSource) \(freed ? "connects again" : "is still refused") once they closed"
        )
        return report
    }

    // MARK: 7. A rebinding Host

    static func rebinding(_ target: AbuseTarget, seed: UInt64) -> AbuseReport {
        var report = AbuseReport("7. rebinding Host and Origin")
        var random = SeededGenerator(seed: seed)
        let own = "127.0.0.1:\(target.port)"
        func upgrade(host: String, origin: String?) -> String {
            do {
                switch try AbuseConnection.upgrade(port: target.port, host: host, origin: origin, random: &random) {
                case .success(let connection):
                    connection.closeNormally()
                    return "101"
                case .failure(let refusal):
                    return refusal.status.map(String.init) ?? refusal.head
                }
            } catch {
                return "\(error)"
            }
        }
        func get(_ path: String, host: String, origin: String?) -> String {
            var request = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
            if let origin { request += "Origin: \(origin)\r\n" }
            do {
                let answer = try AbuseConnection.exchange(port: target.port, request: request + "\r\n")
                answer.socket.close()
                return answer.status.map(String.init) ?? answer.head
            } catch {
                return "\(error)"
            }
        }
        let expectations: [(String, String, String)] = [
            ("upgrade, Host evil.example", upgrade(host: "evil.example", origin: "http://evil.example"), "421"),
            (
                "upgrade, Host evil.example:PORT",
                upgrade(host: "evil.example:\(target.port)", origin: "http://evil.example:\(target.port)"), "421"
            ),
            ("page, Host evil.example", get("/", host: "evil.example", origin: "http://evil.example"), "421"),
            (
                "page, Host evil.example:PORT",
                get("/", host: "evil.example:\(target.port)", origin: "http://evil.example:\(target.port)"), "421"
            ),
            // A page of another origin under the server's own name: the handshake is refused by the
            // WebSocket library, whose answer is always 400 (HandshakeGuard); the same GET without the
            // upgrade reaches the router, which says why with 403.
            ("upgrade, own Host, Origin evil.example", upgrade(host: own, origin: "http://evil.example"), "400"),
            ("GET /sync, own Host, Origin evil.example", get("/sync", host: own, origin: "http://evil.example"), "403"),
            // The same requests naming the server's public URL are served: the refusals are for the names.
            ("upgrade, own Host", upgrade(host: own, origin: nil), "101"),
            ("upgrade, own Host and Origin", upgrade(host: own, origin: "http://\(own)"), "101"),
            ("page, own Host", get("/", host: own, origin: nil), "200"),
        ]
        for (name, answer, expected) in expectations {
            report.check(answer == expected, "\(name): answered \(answer), expected \(expected)")
        }
        report.note(expectations.map { "\($0.0): \($0.1)" }.joined(separator: "; "))
        return report
    }

    // MARK: 8. Presence spam

    static let spamRate = 2_000
    static let spamDuration: Duration = .seconds(3)

    /// `dropped` reads the server's count of dropped presence (its `/metrics`), before and after.
    ///
    /// The limiter lets through its burst and then its rate, counted at the moments the server reads the
    /// frames, which on a loaded machine may lag the sending by a second or more. So the spam ends with a
    /// subscription to a room that does not exist: its refusal comes back once the server has read every
    /// presence before it, and the time to it bounds the time the server took over them.
    static func presenceSpam(_ target: AbuseTarget, seed: UInt64, dropped: () -> Int?) -> AbuseReport {
        var report = AbuseReport("8. presence at \(spamRate)/s")
        var random = SeededGenerator(seed: seed)
        do {
            let listener = try AbuseConnection.open(port: target.port, random: &random)
            let watching = try listener.subscribe(room: target.room, capability: target.view.text)
            let spammer = try AbuseConnection.open(port: target.port, random: &random)
            let granted = try spammer.subscribe(room: target.room, capability: target.edit.text)
            guard case .access(target.room, .view, true) = watching, case .access(target.room, .edit, true) = granted
            else {
                report.fail("subscriptions answered \(watching) and \(granted)")
                return report
            }
            let device = spammer.device!
            // Sealed as a member's would be, each with its own cursor: ten milliseconds' worth per write.
            let perTick = spamRate / 100
            let ticks = Int(spamDuration.components.seconds) * 100
            let writes = (0..<ticks).map { tick in
                (0..<perTick).flatMap { index in
                    let presence = Presence(
                        room: target.room,
                        device: device,
                        name: "spam",
                        colour: 0xD726_3DFF,
                        cursor: (Double(tick), Double(index))
                    )
                    return spammer.frame(.presence(presence.sealed(with: target.key)))
                }
            }
            let marker = RoomLink.newRoomID(using: &random)
            let markerFrame = spammer.frame(.subscribe(room: marker, after: 0, capability: ""))
            let droppedBefore = dropped()

            let stop = StopFlag()
            let markerAnswer = Latch<Duration>()
            let start = ContinuousClock.now
            // The listener counts presence from the spammer's device, by arrival time.
            let counting = Blocking.Background { () -> (arrivals: [Duration], problems: [String]) in
                var arrivals: [Duration] = []
                var problems: [String] = []
                while !stop.isSet {
                    switch listener.next(until: .now + .milliseconds(100)) {
                    case .message(.presence(let presence)) where presence.device == device:
                        arrivals.append(.now - start)
                    case .message(.presences(let batch)):
                        for presence in batch where presence.device == device { arrivals.append(.now - start) }
                    case .message(.error(let code, let message, _, _)):
                        problems.append("the listener got error \(code): \(message)")
                    case .close, .ended:
                        problems.append("the listener's connection ended")
                        return (arrivals, problems)
                    default:
                        continue
                    }
                }
                return (arrivals, problems)
            }
            // The spammer's own reader: when the marker's refusal came, and anything else it was sent.
            let spammerSees = Blocking.Background { () -> [String] in
                var seen: [String] = []
                while !stop.isSet {
                    switch spammer.next(until: .now + .milliseconds(100)) {
                    case .message(.error(AccessAbuse.noSuchRoom, _, false, marker)) where markerAnswer.value == nil:
                        markerAnswer.set(.now - start)
                    case .message(.error(let code, let message, let fatal, _)):
                        seen.append("error \(code) fatal \(fatal): \(message)")
                    case .close(let code, let reason):
                        seen.append("close \(code.map(String.init) ?? "-"): \(reason)")
                    case .ended(let how):
                        seen.append("connection ended: \(how)")
                        return seen
                    default:
                        continue
                    }
                }
                return seen
            }
            var sent = 0
            for (tick, bytes) in writes.enumerated() {
                let due = start + .milliseconds(10 * tick)
                if due > .now { Thread.sleep(forTimeInterval: Double((due - .now).wholeMilliseconds) / 1_000) }
                guard spammer.socket.send(bytes) else { break }
                sent += perTick
            }
            let spamEnded = ContinuousClock.now - start
            report.check(spammer.socket.send(markerFrame), "the closing subscription could not be sent")
            // The marker's answer, then a second for the last presence relayed to reach the listener.
            let waitUntil = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < waitUntil, markerAnswer.value == nil {
                Thread.sleep(forTimeInterval: 0.05)
            }
            Thread.sleep(forTimeInterval: 1)
            stop.set()
            let (arrivals, listenerProblems) = counting.wait()
            let seenBySpammer = spammerSees.wait()
            let markerAnswered = markerAnswer.value
            let droppedAfter = dropped()

            report.check(sent == perTick * ticks, "only \(sent) of \(perTick * ticks) presence frames were sent")
            guard let markerAnswered else {
                report.fail("the subscription sent after the spam was not answered: \(seenBySpammer)")
                return report
            }
            // From the first presence sent to the last one read, the bucket fills at most this far.
            let seconds = Double(markerAnswered.wholeMilliseconds + 1) / 1_000
            let allowed = presenceBurst + Int((Double(presencePerSecond) * seconds).rounded(.up))
            report.check(
                arrivals.count <= allowed,
                "the listener saw \(arrivals.count) presence frames from the spammer, over the \(allowed) allowed "
                    + "in the \(seconds) s until the server had read them all"
            )
            // Relayed presence may be coalesced on its way to a busy listener: a floor well under the rate
            // says only that it flowed (the dropped count below is the limiter's firm check).
            report.check(
                arrivals.count >= presencePerSecond / 6,
                "the listener saw only \(arrivals.count): presence did not flow"
            )
            report.check(listenerProblems.isEmpty, "\(listenerProblems)")
            report.check(seenBySpammer.isEmpty, "the spammer was sent \(seenBySpammer)")
            let alive = spammer.ping()
            report.check(alive.answered, "the spammer's connection was closed for presence: \(alive.seen)")
            let droppedCount = droppedAfter.flatMap { after in droppedBefore.map { after - $0 } }
            if let droppedCount {
                report.check(
                    droppedCount >= sent - allowed,
                    "the server counts \(droppedCount) presence dropped, fewer than \(sent - allowed)"
                )
            } else {
                report.fail("the server's metrics did not give inkwell_presence_dropped_total")
            }
            spammer.closeNormally()
            listener.closeNormally()
            let perSecond = (0...Int(seconds)).map { second in
                arrivals.filter { Int($0.wholeMilliseconds / 1_000) == second }.count
            }
            report.note(
                "\(sent) sent in \(spamEnded), all read by the server after \(seconds) s; the listener saw "
                    + "\(arrivals.count) (per second \(perSecond)), at most \(allowed) allowed; the server counts "
                    + "\(droppedCount.map(String.init) ?? "?") dropped; the spammer answered a ping afterwards: \(alive.answered)"
            )
        } catch {
            report.fail("\(error)")
        }
        return report
    }
}

/// A flag one thread sets and others poll.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .relaxed) }

    func set() { value.store(true, ordering: .relaxed) }
}

/// A value one thread sets once and others read.
final class Latch<Value: Sendable>: Sendable {
    private let stored = Mutex<Value?>(nil)

    var value: Value? { stored.withLock { $0 } }

    func set(_ value: Value) { stored.withLock { $0 = value } }
}
