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

let package = Package(
    name: "inkwell",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "InkwellSync", targets: ["InkwellSync"]),
        .library(name: "InkwellGeometry", targets: ["InkwellGeometry"]),
        .library(name: "InkwellBoard", targets: ["InkwellBoard"]),
        .library(name: "InkwellWire", targets: ["InkwellWire"]),
        .library(name: "InkwellStore", targets: ["InkwellStore"]),
        .library(name: "InkwellServer", targets: ["InkwellServer"]),
        .library(name: "InkwellTesting", targets: ["InkwellTesting"]),
        .executable(name: "inkwell", targets: ["inkwell"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "InkwellSync",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "InkwellGeometry",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "InkwellBoard",
            dependencies: ["InkwellSync", "InkwellGeometry"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "InkwellWire",
            dependencies: [
                "InkwellSync",
                "InkwellGeometry",
                "InkwellBoard",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            swiftSettings: swiftSettings
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
                .product(name: "GRDB", package: "GRDB.swift"),
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
        .executableTarget(
            name: "inkwell",
            dependencies: [
                "InkwellSync",
                "InkwellGeometry",
                "InkwellBoard",
                "InkwellStore",
                "InkwellWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
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
                "InkwellGeometry",
                "InkwellSync",
                "InkwellTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InkwellWireTests",
            dependencies: [
                "InkwellWire",
                "InkwellBoard",
                "InkwellGeometry",
                "InkwellSync",
                "InkwellTesting",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InkwellStoreTests",
            dependencies: [
                "InkwellStore",
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
            dependencies: ["InkwellServer", "InkwellWire", "InkwellSync", "InkwellTesting"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InkwellCLITests",
            dependencies: ["inkwell", "InkwellTesting"],
            swiftSettings: swiftSettings
        ),
    ]
)
