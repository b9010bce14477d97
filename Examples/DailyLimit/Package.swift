// swift-tools-version: 6.0
import PackageDescription

/// DailyLimit: a tiny Screen Time app written against clarityd's simulated iOS, and its tests on
/// the in-process harness. It depends on this repository by path (docs/sdk.md).
let package = Package(
    name: "DailyLimit",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "clarityd", path: "../..")],
    targets: [
        /// The app: main app, DeviceActivityMonitor, ShieldConfiguration and ShieldAction.
        .target(name: "DailyLimit", dependencies: [.product(name: "SimulatediOS", package: "clarityd")]),
        /// clarityd with DailyLimit registered beside the five built-in apps: `swift run dailylimitd`,
        /// then drive it with clarityctl (docs/sdk.md, "Your own daemon").
        .executableTarget(
            name: "dailylimitd",
            dependencies: [
                "DailyLimit", .product(name: "ClarityDaemon", package: "clarityd"),
                .product(name: "BuiltInApps", package: "clarityd"), .product(name: "SimulatediOS", package: "clarityd"),
            ]),
        /// Its behaviour, step by step, with the exact effects of each step, and its races explored.
        .testTarget(
            name: "DailyLimitTests",
            dependencies: [
                "DailyLimit", .product(name: "DeviceTesting", package: "clarityd"),
                .product(name: "BuiltInApps", package: "clarityd"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
