// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for every reader of untrusted bytes, built apart from the main package
// (with coverage and AddressSanitizer) by run.sh.
let package = Package(
    name: "NoteCollectorFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "NoteCollector", path: "..")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "fuzz-log",
            dependencies: ["FuzzDriver", .product(name: "NoteSync", package: "NoteCollector")]),
        .executableTarget(
            name: "fuzz-cloud-json",
            dependencies: ["FuzzDriver", .product(name: "NoteSync", package: "NoteCollector")]),
        .executableTarget(
            name: "fuzz-sealed",
            dependencies: ["FuzzDriver", .product(name: "NoteSync", package: "NoteCollector")]),
        .executableTarget(
            name: "fuzz-interchange",
            dependencies: ["FuzzDriver", .product(name: "NoteInterchange", package: "NoteCollector")]),
        .executableTarget(
            name: "fuzz-images",
            dependencies: ["FuzzDriver", .product(name: "NoteStore", package: "NoteCollector")]),
        .executableTarget(
            name: "fuzz-history-line",
            dependencies: ["FuzzDriver", .product(name: "NoteStore", package: "NoteCollector")]),
    ],
    swiftLanguageModes: [.v6]
)
