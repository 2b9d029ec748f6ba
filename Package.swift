// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "NoteCollector",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "notes", targets: ["notes"]),
        .executable(name: "notes-bench", targets: ["notes-bench"]),
        .library(name: "NoteText", targets: ["NoteText"]),
        .library(name: "NoteStore", targets: ["NoteStore"]),
        .library(name: "NoteSync", targets: ["NoteSync"]),
        .library(name: "NoteWatch", targets: ["NoteWatch"]),
        .library(name: "NoteInterchange", targets: ["NoteInterchange"]),
        .library(name: "NoteTerminal", targets: ["NoteTerminal"]),
        .library(name: "NoteMarkdown", targets: ["NoteMarkdown"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .target(name: "NoteText"),
        .systemLibrary(
            name: "CCmarkGFM",
            providers: [.apt(["libcmark-gfm-dev"])]),
        .target(
            name: "NoteMarkdown",
            dependencies: ["CCmarkGFM"]),
        .target(name: "CFileSystem"),
        .target(
            name: "NoteFiles",
            dependencies: ["CFileSystem"]),
        .target(name: "CTerminal"),
        .systemLibrary(
            name: "CNCurses",
            providers: [.apt(["libncurses-dev"])]),
        .target(
            name: "NoteTerminal",
            dependencies: ["CTerminal", "CNCurses", "NoteStore"]),
        .target(
            name: "CSQLiteHardening",
            linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "NoteStore",
            dependencies: [
                "NoteText", "NoteMarkdown", "NoteFiles", "CSQLiteHardening", "CFileSystem",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(
            name: "NoteSync",
            dependencies: [
                "NoteStore", "NoteText", "NoteFiles", "CFileSystem",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
        .systemLibrary(
            name: "CInotifyTools",
            providers: [.apt(["libinotifytools0-dev"])]),
        .target(
            name: "NoteWatch",
            dependencies: [
                "CInotifyTools", "NoteSync", "NoteFiles",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "notes",
            dependencies: [
                "NoteStore", "NoteSync", "NoteWatch", "NoteText", "NoteInterchange", "NoteTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "notes-bench",
            dependencies: [
                "NoteStore", "NoteSync", "NoteFiles", "SyncthingLoopback",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .target(
            name: "NoteInterchange",
            dependencies: ["NoteStore", "NoteMarkdown", "NoteFiles", .product(name: "Yams", package: "Yams")]),
        .target(name: "SyncthingLoopback"),
        .target(
            name: "NoteTestSupport",
            dependencies: [
                "NoteStore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .target(
            name: "NoteSyncTestSupport",
            dependencies: ["NoteSync", "NoteStore"]),
        .testTarget(
            name: "NoteStoreTests",
            dependencies: [
                "NoteStore", "NoteTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "NoteTextTests",
            dependencies: ["NoteText", "NoteTestSupport"]),
        .testTarget(
            name: "NoteSyncTests",
            dependencies: [
                "NoteSync", "NoteStore", "NoteTestSupport", "NoteSyncTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "NoteInterchangeTests",
            dependencies: [
                "NoteInterchange", "NoteStore", "NoteFiles", "NoteTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "NoteMarkdownTests",
            dependencies: ["NoteMarkdown"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "NoteTerminalTests",
            dependencies: ["NoteTerminal", "NoteStore", "NoteTestSupport"]),
        .testTarget(
            name: "NoteWatchTests",
            dependencies: ["NoteWatch", "NoteTestSupport"]),
        .testTarget(
            name: "NotesCLITests",
            dependencies: [
                "NoteStore", "NoteSync", "NoteTestSupport", "NoteSyncTestSupport", "SyncthingLoopback",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
