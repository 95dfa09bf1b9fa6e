import InkwellBoard
import InkwellClient
import InkwellStore
import Logging

/// The bytes of a board's images, for its SVG: from the store, fetched into it first where a client can.
struct BoardImages {
    private var bytes: [BlobHash: [UInt8]] = [:]

    /// Every image the board shows: from the store, or downloaded into it by `client` (logged and left
    /// out when that fails, so the export still comes, with a grey box).
    static func gather(
        for state: BoardState,
        room: String,
        store: Store,
        client: SyncClient?,
        logger: Logger
    ) async -> BoardImages {
        var images = BoardImages()
        for image in state.drawing.compactMap(\.image) {
            guard let hash = BlobHash(digest: image.blob), images.bytes[hash] == nil else { continue }
            do {
                if let client {
                    images.bytes[hash] = try await client.cachedBlob(hash, room: room, mimeType: image.type)
                } else if let record = try store.blob(hash), record.state == .present,
                    case .inline(let stored) = record.content
                {
                    images.bytes[hash] = stored
                }
            } catch {
                logger.warning("image not fetched", metadata: ["blob": "\(hash)", "error": "\(error)"])
            }
        }
        return images
    }

    func bytes(of image: BoardImage) -> [UInt8]? {
        BlobHash(digest: image.blob).flatMap { bytes[$0] }
    }
}
