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
        .library(name: "InkwellTesting", targets: ["InkwellTesting"]),
        .executable(name: "inkwell", targets: ["inkwell"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
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
            name: "InkwellCLITests",
            dependencies: ["inkwell"],
            swiftSettings: swiftSettings
        ),
    ]
)
