/// Why a JSON stroke-protocol message was rejected. Safe to log: names fields, never echoes content.
public struct InteropError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case tooLarge
        case notJSON
        case notAMessage
        case unknownType
        case numberOutOfRange
        case badField(String)
    }

    private let code: Code

    /// The message is larger than ``InteropMessage/maximumBytes``.
    public static let tooLarge = InteropError(code: .tooLarge)
    /// The bytes are not valid JSON.
    public static let notJSON = InteropError(code: .notJSON)
    /// Valid JSON, but not an object with a string `type`.
    public static let notAMessage = InteropError(code: .notAMessage)
    /// `type` is not `ADD`, `APPEND` or `DELETE`.
    public static let unknownType = InteropError(code: .unknownType)

    /// A number cannot be represented as a double (such as `1e400`).
    public static let numberOutOfRange = InteropError(code: .numberOutOfRange)

    /// A field is missing, of the wrong type, or out of range.
    public static func badField(_ name: String) -> InteropError { InteropError(code: .badField(name)) }

    public var description: String {
        switch code {
        case .tooLarge: "message larger than \(InteropMessage.maximumBytes) bytes"
        case .notJSON: "message is not valid JSON"
        case .notAMessage: "message is not a JSON object with a string \"type\""
        case .unknownType: "\"type\" must be ADD, APPEND or DELETE"
        case .numberOutOfRange: "a number in the message is too large to represent"
        case .badField(let name): "field \"\(name)\" is missing, of the wrong type, or out of range"
        }
    }
}
