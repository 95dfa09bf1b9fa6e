import Foundation
import InkwellBoard
import InkwellClient
import InkwellStore
import InkwellSync
import InkwellWire
import Logging

/// One app speaking the JSON stroke protocol (`interop-protocol.md`) in one room: a replica of its own,
/// in memory, that syncs with the server like any client. The app's messages become that replica's
/// changes (``InteropSession``), signed by its key; the board's changes from everyone else go back to
/// the app as messages.
///
/// It works only on a plain board: the server cannot open an encrypted one, and its bridge neither.
/// And only with a link that lets it edit.
actor InteropBridge {
    /// Why a connection ends, told to the app in an `ERROR` message before the close.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    let room: String
    private let replica: Replica
    private var session: InteropSession
    private let logger: Logger

    /// Opens the replica and joins the room as the app's link allows.
    ///
    /// - Throws: ``Refusal`` for a room name the protocol cannot carry or a capability that does not parse.
    init(room: String, capability: String?, server: URL, logger: Logger) async throws {
        guard SyncProtocol.isValidRoom(room) else { throw Refusal(description: "not a room name: \(room)") }
        let store = try Store.inMemory()
        if let capability {
            guard let parsed = Capability(capability) else {
                throw Refusal(description: "the cap parameter is not a capability")
            }
            try store.setCredentials(RoomCredentials.from(link: parsed, key: nil), for: room)
        }
        self.room = room
        self.logger = logger
        replica = try await Replica(
            store: store,
            servers: [server],
            documentTypes: DocumentTypes(documents: [BoardState.self]),
            configuration: SyncClient.Configuration(agent: "inkwell-interop/1", snapshotThreshold: nil),
            logger: logger
        )
        session = InteropSession(replica: try store.replica(for: room), board: BoardID("main"))
    }

    /// Syncs until the app leaves: waits for the room's access and its history, checks the board is one
    /// the protocol can speak for, then relays both ways. `send` writes one message to the app.
    ///
    /// - Throws: ``Refusal`` when the board is encrypted, the link cannot edit, or the room does not open.
    func run(
        incoming: some AsyncSequence<[UInt8], any Error>,
        send: @escaping @Sendable (String) async throws -> Void
    ) async throws {
        do {
            try await relay(incoming: incoming, send: send)
        } catch {
            await replica.stop()
            throw error
        }
        // What the app drew reaches the server before its replica, held in memory only, goes.
        do {
            try await replica.waitUntilSynced(timeout: .seconds(20))
        } catch {
            logger.error("interop changes not all uploaded when the app left", metadata: ["reason": "\(error)"])
        }
        await replica.stop()
    }

    private func relay(
        incoming: some AsyncSequence<[UInt8], any Error>,
        send: @escaping @Sendable (String) async throws -> Void
    ) async throws {
        try await replica.open(BoardState.self, room: room, document: "main")
        let updates = await replica.updates(of: BoardState.self, room: room, document: "main")
        let running = Task { try await replica.run() }
        defer { running.cancel() }
        let rights: Rights
        do {
            rights = try await replica.sync!.waitForAccess(room: room, timeout: .seconds(20))
        } catch {
            throw Refusal(description: "the room does not open with this link: \(error)")
        }
        guard rights >= .edit else {
            throw Refusal(description: "the JSON stroke protocol needs a link that can edit this board")
        }
        try await replica.waitUntilSynced(timeout: .seconds(60))
        try refuseIfEncrypted()
        // Every batch from elsewhere since the replica opened, the catch-up first: the stream was
        // subscribed before it started, and kept them.
        let relaying = Task {
            for await update in updates where update.origin != .local {
                try await self.describe(update.changes, in: update.state, send: send)
            }
        }
        defer { relaying.cancel() }
        for try await bytes in incoming {
            try await receive(bytes, send: send)
        }
    }

    /// Takes one message from the app: a change, nothing (it waits for its stroke, or removes nothing),
    /// or an `ERROR` back for a message that is malformed, which changes nothing.
    private func receive(_ bytes: [UInt8], send: @Sendable (String) async throws -> Void) async throws {
        let message: InteropMessage
        do {
            message = try InteropMessage(json: bytes)
        } catch {
            try await send(Self.error("\(error)"))
            return
        }
        let now = UInt64(Date().timeIntervalSince1970 * 1_000)
        for change in session.receive(message, wallMilliseconds: now) {
            let recorded = try await replica.edit(change.payload, room: room)
            // The session names the app's strokes by the ids it gave them; the replica gives the same,
            // being the only author of its timeline.
            guard recorded.id == change.id else {
                throw Refusal(description: "the bridge's timeline went out of step (\(recorded.id) for \(change.id))")
            }
        }
    }

    /// Sends the app the messages that describe `ids`, changes made elsewhere, on `board`.
    private func describe(
        _ ids: [ChangeID],
        in board: BoardState,
        send: @Sendable (String) async throws -> Void
    ) async throws {
        for id in ids {
            guard let stored = try replica.store.change(id),
                let change = try? ChangeCodec.decode(stored.payload).decoded(as: BoardEdit.self)
            else { continue }
            session.witness(change, wallMilliseconds: UInt64(Date().timeIntervalSince1970 * 1_000))
            for message in session.messages(for: change, in: board) {
                try await send(String(decoding: message.json, as: UTF8.self))
            }
        }
    }

    /// Refuses an encrypted board: its packs came sealed, and there is no key here to open them.
    private func refuseIfEncrypted() throws {
        for item in try replica.store.storedAside(upTo: .max) {
            do {
                _ = try PackCodec.decode(item.bytes, room: room, understanding: .max, key: nil)
            } catch .encrypted {
                throw Refusal(
                    description:
                        "this board is end-to-end encrypted: the JSON stroke protocol works only on unencrypted boards"
                )
            } catch {
                continue
            }
        }
    }

    /// An `ERROR` message: what was wrong, in words.
    static func error(_ message: String) -> String {
        let object: [String: String] = ["type": "ERROR", "message": message]
        return String(
            decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
            as: UTF8.self
        )
    }
}
