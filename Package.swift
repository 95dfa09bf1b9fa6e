// swift-tools-version:6.1

import PackageDescription

/// One set of settings for every target: Swift 6 mode plus the upcoming features the house style asks for.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    // https://github.com/apple/swift-evolution/blob/main/proposals/0335-existential-any.md
    .enableUpcomingFeature("ExistentialAny"),
    // https://github.com/swiftlang/swift-evolution/blob/main/proposals/0444-member-import-visibility.md
    .enableUpcomingFeature("MemberImportVisibility"),
    // https://github.com/swiftlang/swift-evolution/blob/main/proposals/0409-access-level-on-imports.md
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// `INKWELL_FUZZ=1` builds the coverage-guided fuzzer, `inkwell-fuzz`: the decoders' modules
/// instrumented for libFuzzer (`swiftc -sanitize=fuzzer`). `Scripts/fuzz.sh` sets it, in a build
/// folder of its own.
let fuzzing = Context.environment["INKWELL_FUZZ"] == "1"
let fuzzed: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer"])] : []

let package = Package(
    name: "inkwell",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "InkwellSync", targets: ["InkwellSync"]),
        .library(name: "InkwellGeometry", targets: ["InkwellGeometry"]),
        .library(name: "InkwellBoard", targets: ["InkwellBoard"]),
        .library(name: "InkwellModel", targets: ["InkwellModel"]),
        .library(name: "InkwellWire", targets: ["InkwellWire"]),
        .library(name: "InkwellStore", targets: ["InkwellStore"]),
        .library(name: "InkwellServer", targets: ["InkwellServer"]),
        .library(name: "InkwellClient", targets: ["InkwellClient"]),
        .library(name: "InkwellTesting", targets: ["InkwellTesting"]),
        .library(name: "InkwellBoardTesting", targets: ["InkwellBoardTesting"]),
        .executable(name: "inkwell", targets: ["inkwell"]),
        .executable(name: "inkwell-bench", targets: ["inkwell-bench"]),
        .executable(name: "food-log", targets: ["food-log"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        .target(
            name: "InkwellSync",
            swiftSettings: swiftSettings + fuzzed
        ),
        .target(
            name: "InkwellGeometry",
            swiftSettings: swiftSettings + fuzzed
        ),
        .target(
            name: "InkwellBoard",
            dependencies: [
                "InkwellSync",
                "InkwellGeometry",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: swiftSettings + fuzzed
        ),
        // A generic document of named counters and registers: the engine's second document type.
        .target(
            name: "InkwellModel",
            dependencies: ["InkwellSync"],
            swiftSettings: swiftSettings
        ),
        // libdeflate, whole buffer at a time, for the deflate of packs and snapshots (Scripts/install-packages.sh
        // installs Debian's libdeflate-dev).
        .systemLibrary(name: "CLibDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .target(
            name: "InkwellWire",
            dependencies: [
                "InkwellSync",
                "CLibDeflate",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings + fuzzed
        ),
        .target(
            name: "InkwellStore",
            dependencies: [
                "InkwellSync",
                "InkwellWire",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "InkwellServer",
            dependencies: [
                "InkwellSync",
                "InkwellWire",
                "InkwellStore",
                // Blob files under the crash VFS's power-cut model, where a power-loss test arms it.
                "CInkwellCrashVFS",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "InkwellClient",
            dependencies: [
                // The shared folder's files under the crash VFS's power-cut model, where a power-loss test arms it.
                "CInkwellCrashVFS",
                "InkwellSync",
                "InkwellModel",
                "InkwellWire",
                "InkwellStore",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // Blobs are named by the SHA-256 of the bytes uploaded.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "InkwellTesting",
            dependencies: [
                "InkwellSync",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        // Board changes and signed packs for tests of servers and clients.
        .target(
            name: "InkwellBoardTesting",
            dependencies: ["InkwellSync", "InkwellGeometry", "InkwellBoard", "InkwellWire"],
            swiftSettings: swiftSettings
        ),
        // The web client's files as resources, so `inkwell serve` finds its page from any directory. `Web/`
        // stays where it is for the page's own tests, which import `js/` by relative path.
        .target(
            name: "InkwellWeb",
            path: "Web",
            exclude: ["test", "bench"],
            sources: ["Swift"],
            resources: [.copy("index.html"), .copy("app.css"), .copy("sw.js"), .copy("js")],
            swiftSettings: swiftSettings
        ),
        // The decoders' fuzz checks: round trips or clean errors, for libFuzzer and for `swift test`.
        .target(
            name: "InkwellFuzzing",
            dependencies: ["InkwellSync", "InkwellWire", "InkwellBoard"],
            swiftSettings: swiftSettings + fuzzed
        ),
        // A whole deployment in one process on a simulated clock: `inkwell simulate`.
        .target(
            name: "InkwellSimulation",
            dependencies: [
                "InkwellSync",
                "InkwellGeometry",
                "InkwellWire",
                "InkwellBoard",
                "InkwellStore",
                "InkwellServer",
                "InkwellClient",
                "CInkwellCrashVFS",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // A SQLite VFS that loses what no fsync covered, as a power cut does: for the power-loss tests of
        // the server's and the replica's stores (`serve --crash-vfs`, `store-writer --crash-vfs`).
        .target(
            name: "CInkwellCrashVFS",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        // What both executables share: server addresses as people type them, logging to standard error.
        .target(
            name: "InkwellCommandLine",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        // Finding hubs on the local network: a minimal mDNS responder and one-shot browser (DNS-SD).
        .target(
            name: "InkwellDiscovery",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "inkwell",
            dependencies: [
                "InkwellDiscovery",
                "InkwellSync",
                "InkwellGeometry",
                "InkwellBoard",
                "InkwellStore",
                "InkwellWire",
                "InkwellServer",
                "InkwellClient",
                "InkwellCommandLine",
                "InkwellWeb",
                "InkwellSimulation",
                "CInkwellCrashVFS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                // The JSON stroke protocol's route (`/interop/ROOM`) reads and writes its socket's text.
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Benchmarks and the load generator, apart from the user's `inkwell`; W5 starts the `inkwell` beside it.
        .executableTarget(
            name: "inkwell-bench",
            dependencies: [
                "InkwellSync",
                "InkwellGeometry",
                "InkwellBoard",
                "InkwellStore",
                "InkwellWire",
                "InkwellClient",
                "InkwellCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The second app: a food log of days, each a model document of counters.
        .executableTarget(
            name: "food-log",
            dependencies: [
                "InkwellClient",
                "InkwellStore",
                "InkwellSync",
                "InkwellModel",
                "InkwellCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            path: "Examples/FoodLog",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InkwellSyncTests",
            dependencies: [
                "InkwellSync",
                "InkwellTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InkwellGeometryTests",
            dependencies: [
                "InkwellGeometry",
                "InkwellTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InkwellBoardTests",
            dependencies: [
                "InkwellBoard",
                "InkwellBoardTesting",
                "InkwellGeometry",
                "InkwellSync",
                "InkwellTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InkwellModelTests",
            dependencies: [
                "InkwellModel",
                "InkwellSync",
                "InkwellTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InkwellDiscoveryTests",
            dependencies: ["InkwellDiscovery", "InkwellTesting", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InkwellWireTests",
            dependencies: [
                "InkwellWire",
                "InkwellBoardTesting",
                "InkwellFuzzing",
                "InkwellBoard",
                "InkwellGeometry",
                "InkwellSync",
                "InkwellTesting",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                // zlib's deflate, independent of the one packs are written with: streams it writes must read.
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InkwellStoreTests",
            dependencies: [
                "InkwellStore",
                // A disk that fills up or fails on demand.
                "CInkwellCrashVFS",
                "InkwellSync",
                "InkwellWire",
                "InkwellBoard",
                "InkwellTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InkwellServerTests",
            dependencies: [
                "InkwellServer",
                "InkwellBoardTesting",
                "InkwellBoard",
                "InkwellGeometry",
                "InkwellWire",
                "InkwellSync",
                "InkwellTesting",
                "InkwellClient",
                "InkwellStore",
                // The pack log's fault tests checkpoint its file before they cut it short.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                // The hub's tests give their connections channels that write nowhere.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // The TLS tests open a WSS socket that trusts the certificate they made.
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InkwellCLITests",
            dependencies: [
                // The tests run the built binaries: `BenchCommandTests` runs `inkwell-bench`.
                "inkwell",
                "inkwell-bench",
                // The power-loss tests settle what a killed process left unsynced.
                "CInkwellCrashVFS",
                // The simulation's tests name the bugs it can put in.
                "InkwellSimulation",
                "InkwellBoardTesting",
                "InkwellTesting",
                // The hostile-client tests build frames and packs by hand and audit the server's pack log.
                "InkwellSync",
                "InkwellBoard",
                "InkwellGeometry",
                "InkwellWire",
                "InkwellStore",
                "InkwellServer",
                "InkwellClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // The audits read a server's rooms from PostgreSQL when it ran on it.
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The blob power-loss test uploads over NIO: URLSession crashes on Linux when its server dies.
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InkwellClientTests",
            dependencies: [
                // The end-to-end tests launch the built `inkwell serve`.
                "inkwell",
                // A device's disk that fails on demand.
                "CInkwellCrashVFS",
                "InkwellClient",
                "InkwellStore",
                "InkwellWire",
                "InkwellBoard",
                "InkwellGeometry",
                "InkwellSync",
                "InkwellTesting",
                // Reads the server's pack log, to check what it recorded.
                .product(name: "GRDB", package: "GRDB.swift"),
                // A server that never answers a close, for the socket's close timeout.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FoodLogTests",
            dependencies: [
                // The tests run the built `food-log`, against the built `inkwell serve`.
                "food-log",
                "inkwell",
                "InkwellTesting",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)

if fuzzing {
    // Its `main` hands libFuzzer's driver the target chosen. `Scripts/fuzz.sh` links libFuzzer without its
    // own `main` (`libclang_rt.fuzzer_no_main`), which SwiftPM's `main` would clash with.
    package.targets.append(
        .executableTarget(
            name: "inkwell-fuzz",
            dependencies: ["InkwellFuzzing"],
            path: "Fuzz/Entry",
            swiftSettings: swiftSettings + fuzzed
        )
    )
    package.products.append(.executable(name: "inkwell-fuzz", targets: ["inkwell-fuzz"]))
}
