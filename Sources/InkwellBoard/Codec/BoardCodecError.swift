/// Why an operation's bytes could not be read as the board reads them.
///
/// A change never fails to decode for this: the operation is kept as
/// ``BoardOperation/unknown(kind:bytes:)``. Only ``InkCodec``, which reads presence ink on its own,
/// reports it.
public enum BoardCodecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes are not the message they should be.
    case malformed(String)
    /// A field holds a value the board does not accept.
    case invalidField(String)
    /// More of something than the board accepts.
    case tooLarge(String)

    public var description: String {
        switch self {
        case .malformed(let what): return "malformed \(what)"
        case .invalidField(let field): return "invalid \(field)"
        case .tooLarge(let what): return "\(what) too large"
        }
    }
}
