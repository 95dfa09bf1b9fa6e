import Foundation
import InkwellStore
import InkwellTesting
import Testing

/// Every store test runs on both kinds of database (house style 15).
enum StoreKind: CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory
    case onDisk

    var testDescription: String { self == .inMemory ? "in memory" : "on disk" }

    func open(configuration: Store.Configuration = .init()) throws -> OpenedStore {
        switch self {
        case .inMemory:
            return OpenedStore(store: try Store.inMemory(configuration: configuration), directory: nil)
        case .onDisk:
            let directory = try TemporaryDirectory()
            return OpenedStore(
                store: try Store(path: directory.file, configuration: configuration),
                directory: directory
            )
        }
    }
}

/// A store plus the folder that holds its file, removed when the test lets go of both.
struct OpenedStore {
    let store: Store
    let directory: TemporaryDirectory?

    /// Opens the same file again, as a restarted app would (on-disk stores only).
    func reopened(configuration: Store.Configuration = .init()) throws -> OpenedStore {
        let directory = try #require(directory)
        return OpenedStore(store: try Store(path: directory.file, configuration: configuration), directory: directory)
    }
}

extension TemporaryDirectory {
    /// The store's file inside the folder.
    var file: String { path("store.sqlite") }
}
