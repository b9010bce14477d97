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
        /// Its behaviour, step by step, with the exact effects of each step.
        .testTarget(
            name: "DailyLimitTests",
            dependencies: ["DailyLimit", .product(name: "DeviceTesting", package: "clarityd")]),
    ],
    swiftLanguageModes: [.v6]
)
