import InkwellBoard
import Testing

@Suite struct ColourTests {
    @Test func packsAsRGBAAndPrintsAsHex() {
        let colour = Colour(red: 0x12, green: 0xAB, blue: 0x00, alpha: 0x80)
        #expect(colour.rgba == 0x12AB_0080)
        #expect(Colour(rgba: colour.rgba) == colour)
        #expect(colour.hex == "#12ab0080")
        #expect(Colour(red: 1, green: 2, blue: 3).hex == "#010203")
    }
}
