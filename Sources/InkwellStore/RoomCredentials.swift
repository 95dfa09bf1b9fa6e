public import InkwellWire

/// What opens a room for this device: the capability it subscribes with, the ones it may share, and
/// the room's key when the room is encrypted. Kept in the store, so a replica that made a board (and
/// holds its admin capability) can share it again and rotate its links from any later run.
public struct RoomCredentials: Hashable, Sendable {
    /// The capability this device subscribes with: its strongest.
    public var capability: Capability
    /// The room's admin capability: held only by the device that made the board.
    public var admin: Capability?
    public var edit: Capability?
    public var view: Capability?
    /// The room's key, when the room is encrypted: packs and presence are sealed with it, and a plain
    /// pack or presence in the room is refused.
    public var key: RoomKey?

    public init(
        capability: Capability,
        admin: Capability? = nil,
        edit: Capability? = nil,
        view: Capability? = nil,
        key: RoomKey? = nil
    ) {
        self.capability = capability
        self.admin = admin
        self.edit = edit
        self.view = view
        self.key = key
    }

    /// A new board's: fresh admin, edit and view capabilities, and a key unless the board is plain.
    public static func minted(key: RoomKey?) -> RoomCredentials {
        let (admin, edit, view) = (Capability.mint(.admin), Capability.mint(.edit), Capability.mint(.view))
        return RoomCredentials(capability: admin, admin: admin, edit: edit, view: view, key: key)
    }

    /// What a link gives: its one capability, which is also the one to share onward.
    public static func from(link capability: Capability, key: RoomKey?) -> RoomCredentials {
        RoomCredentials(
            capability: capability,
            edit: capability.kind == .edit ? capability : nil,
            view: capability.kind == .view ? capability : nil,
            key: key
        )
    }

    /// The hashes a server registers the room by, when this device can register it.
    public var registration: (admin: [UInt8], edit: [UInt8], view: [UInt8])? {
        guard let admin, let edit, let view else { return nil }
        return (admin.hash, edit.hash, view.hash)
    }

    /// The rights this device expects, before the server says.
    public var rights: Rights { capability.kind.rights }
}
