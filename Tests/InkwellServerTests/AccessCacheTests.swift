import Testing

@testable import InkwellServer

/// The access cache never keeps what a read found when a registration or rotation committed while the
/// read was under way: those hashes may be the replaced ones.
@Suite struct AccessCacheTests {
    static let old = RoomAccess.guarded(.init(admin: [1], edit: [2], view: [3]))
    static let rotated = RoomAccess.guarded(.init(admin: [1], edit: [2], view: [4]))

    @Test func aReadThatRacedARotationIsNotCachedOverIt() {
        var cache = AccessCache()
        // A subscribe starts reading the room while a rotation commits and is remembered.
        let readAt = cache.generation
        cache.remember(Self.rotated, for: "r")
        // The read returns the hashes from before the rotation.
        let cached = cache.store(read: Self.old, for: "r", readAt: readAt)
        #expect(!cached)
        #expect(cache.entries["r"] == Self.rotated)
    }

    @Test func aReadThatRacedAWriteToAnotherRoomIsNotCachedEither() {
        var cache = AccessCache()
        let readAt = cache.generation
        cache.remember(Self.rotated, for: "other")
        let cached = cache.store(read: Self.old, for: "r", readAt: readAt)
        #expect(!cached)
        #expect(cache.entries["r"] == nil, "read again next time, which costs one lookup")
    }

    @Test func aReadWithNoWriteMeanwhileIsCached() {
        var cache = AccessCache()
        cache.remember(.open, for: "elsewhere")
        let readAt = cache.generation
        let cached = cache.store(read: Self.old, for: "r", readAt: readAt)
        #expect(cached)
        #expect(cache.entries["r"] == Self.old)
    }
}
