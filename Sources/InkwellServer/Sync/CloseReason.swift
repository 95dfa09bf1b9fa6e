/// A close frame's reason as it fits on the wire: a close frame is a control frame, at most 125 bytes,
/// two of them the code (RFC 6455, 5.5). A longer reason would make the close unsendable, and the peer
/// would see the socket drop with no code at all; the error frame before the close carries the whole
/// message anyway.
enum CloseReason {
    static let maximumBytes = 123

    /// `reason`, cut at a character boundary to at most ``maximumBytes`` bytes of UTF-8, with an ellipsis
    /// when it was cut.
    static func fitted(_ reason: String) -> String {
        guard reason.utf8.count > maximumBytes else { return reason }
        let ellipsis = "…"
        var fitted = ""
        var bytes = ellipsis.utf8.count
        for character in reason {
            let size = String(character).utf8.count
            guard bytes + size <= maximumBytes else { break }
            fitted.append(character)
            bytes += size
        }
        return fitted + ellipsis
    }
}
