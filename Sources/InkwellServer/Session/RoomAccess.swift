public import InkwellWire

/// What the server keeps of a room's access: the hashes of its capabilities, or that it is open.
///
/// Capabilities themselves never reach the store: a stolen database opens no board. A room made
/// before capabilities existed, or named on a server started with `--open-rooms`, is open: anyone who
/// names it may edit it.
public enum RoomAccess: Hashable, Sendable {
    case open
    case guarded(Hashes)

    /// SHA-256 hashes of a room's three capabilities (``Capability/hash``).
    public struct Hashes: Hashable, Sendable {
        public var admin: [UInt8]
        public var edit: [UInt8]
        public var view: [UInt8]

        public init(admin: [UInt8], edit: [UInt8], view: [UInt8]) {
            self.admin = admin
            self.edit = edit
            self.view = view
        }

        /// Replaces the edit and view hashes with these, where they are not empty and differ.
        ///
        /// - Returns: the hashes replaced: they no longer open the room.
        mutating func rotate(edit newEdit: [UInt8], view newView: [UInt8]) -> Set<[UInt8]> {
            var replaced: Set<[UInt8]> = []
            if !newEdit.isEmpty, newEdit != edit {
                replaced.insert(edit)
                edit = newEdit
            }
            if !newView.isEmpty, newView != view {
                replaced.insert(view)
                view = newView
            }
            return replaced
        }
    }

    /// How a registration ended.
    public enum Registration: Hashable, Sendable {
        case created
        /// The room exists with the same admin hash: a device registering again what it made.
        case alreadyRegistered
        /// The room exists with another admin, or is open.
        case taken
    }

    /// How a rotation ended.
    public enum Rotation: Hashable, Sendable {
        /// Done; these hashes no longer open the room.
        case rotated(replaced: Set<[UInt8]>)
        /// No such guarded room, or the admin capability is not its.
        case refused
    }

    /// The rights a presented capability gives: compared by hash, the strongest match wins.
    public func rights(for capability: String) -> Rights {
        switch self {
        case .open:
            return .edit
        case .guarded(let hashes):
            let hash = Capability.hash(of: capability)
            if Self.same(hash, hashes.admin) { return .admin }
            if Self.same(hash, hashes.edit) { return .edit }
            if Self.same(hash, hashes.view) { return .view }
            return .none
        }
    }

    /// Compares hashes in time independent of where they differ.
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}
