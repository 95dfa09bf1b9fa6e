import InkwellStore
import InkwellSync
import InkwellWire
import Testing

/// What opens each room, kept in the device's store.
@Suite struct RoomCredentialsTests {
    @Test func credentialsRoundTripAndAViewLinkDoesNotDropTheAdminCapability() throws {
        let store = try Store.inMemory()
        var random = SystemRandomNumberGenerator()
        let made = RoomCredentials.minted(key: RoomKey.generate(using: &random))
        #expect(try store.credentials(room: "room") == nil)
        try store.setCredentials(made, for: "room")
        #expect(try store.credentials(room: "room") == made)
        // Opening the board's view link on the device that made it keeps what it held.
        try store.setCredentials(.from(link: made.view!, key: nil), for: "room")
        let now = try #require(try store.credentials(room: "room"))
        #expect(now.capability == made.view && now.admin == made.admin && now.edit == made.edit && now.key == made.key)
        #expect(try store.roomsWithCredentials() == ["room"])
        #expect(throws: StoreError.self) { try store.setCredentials(made, for: "") }
    }
}
