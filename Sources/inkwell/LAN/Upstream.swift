import ArgumentParser
import Foundation
import InkwellClient
import InkwellCommandLine
import InkwellWire

/// What a hub syncs with (`--upstream`): a server, for every room the hub holds, or a board's link, for
/// that room with the link's capability.
struct Upstream: Sendable {
    let syncURL: URL
    /// The one room a link names; `nil` for a whole server.
    let room: String?
    let capability: String

    /// - Throws: `ValidationError` for an argument that is neither a server address nor a board link.
    init(_ argument: String) throws {
        if argument.contains("/r/"), let link = RoomLink(argument) {
            syncURL = try ServerAddress.syncURL(link.server.absoluteString)
            room = link.room
            capability = link.capability?.text ?? ""
        } else {
            syncURL = try ServerAddress.syncURL(argument)
            room = nil
            capability = ""
        }
    }
}
