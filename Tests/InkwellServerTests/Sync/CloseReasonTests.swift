import Testing

@testable import InkwellServer

/// A close frame's reason always fits the 123 bytes a close frame leaves it.
@Suite struct CloseReasonTests {
    @Test func aShortReasonIsKeptWhole() {
        let reason = String(repeating: "a", count: CloseReason.maximumBytes)
        #expect(CloseReason.fitted(reason) == reason)
    }

    @Test func aLongReasonIsCutAtACharacterWithAnEllipsis() {
        let ascii = CloseReason.fitted(String(repeating: "b", count: 400))
        #expect(ascii.utf8.count <= CloseReason.maximumBytes && ascii.hasSuffix("…"))
        #expect(ascii.utf8.count == CloseReason.maximumBytes, "as much of it as fits")
        // Multi-byte characters are never split.
        let wide = CloseReason.fitted(String(repeating: "é", count: 100) + "ü")
        #expect(wide.utf8.count <= CloseReason.maximumBytes)
        #expect(wide.dropLast().allSatisfy { $0 == "é" })
    }
}
