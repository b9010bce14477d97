// swift-tools-version: 6.0
import PackageDescription

/// clarityd's coverage-guided fuzz targets (libFuzzer), one executable each, built only by
/// scripts/fuzz.sh with `--sanitize=fuzzer --sanitize=address` (libFuzzer supplies `main`, so a
/// plain `swift build` here does not link them). docs/fuzzing.md, "Coverage-guided".
let package = Package(
    name: "ClaritydFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "clarityd", path: "..")],
    targets: [
        /// NDJSON framing (LineBuffer) against a reference model, under any chunking.
        .executableTarget(name: "fuzz-line-framing", dependencies: [.product(name: "ClarityDaemon", package: "clarityd")]),
        /// The JSON reader: what it accepts round-trips through the writer; it agrees with Foundation.
        .executableTarget(name: "fuzz-json", dependencies: [.product(name: "ClarityDaemon", package: "clarityd")]),
        /// Request lines: parsed, their params decoded and run on a device, as a restart replays them.
        .executableTarget(
            name: "fuzz-request",
            dependencies: [
                .product(name: "ClarityDaemon", package: "clarityd"), .product(name: "BuiltInApps", package: "clarityd"),
                .product(name: "SimulatediOS", package: "clarityd"),
            ]),
        /// Scenario files, decoded against the built-in apps.
        .executableTarget(
            name: "fuzz-scenario",
            dependencies: [
                .product(name: "ClarityDaemon", package: "clarityd"), .product(name: "BuiltInApps", package: "clarityd"),
                .product(name: "SimulatediOS", package: "clarityd"),
            ]),
        /// Snapshot files, read and restored as a restart restores them, then run for a day.
        .executableTarget(
            name: "fuzz-snapshot",
            dependencies: [
                .product(name: "ClarityDaemon", package: "clarityd"), .product(name: "BuiltInApps", package: "clarityd"),
                .product(name: "SimulatediOS", package: "clarityd"),
            ]),
        /// The Phone's backend files (snapshot and journal), restored as a restart restores them.
        .executableTarget(
            name: "fuzz-backend",
            dependencies: [.product(name: "ClarityDaemon", package: "clarityd"), .product(name: "BuiltInApps", package: "clarityd")]),
        /// Journal files, read as a restart reads them.
        .executableTarget(name: "fuzz-journal", dependencies: [.product(name: "ClarityDaemon", package: "clarityd")]),
    ],
    swiftLanguageModes: [.v6]
)
