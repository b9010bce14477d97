// swift-tools-version: 6.0
import PackageDescription

/// Foqos (github.com/awaseem/foqos, MIT): its Screen Time extensions — the DeviceActivityMonitor
/// and its timer activities, the ShieldConfiguration and ShieldAction extensions — and the part
/// of its main app that saves a profile and starts, breaks and stops a session, ported onto
/// clarityd's simulated iOS (docs/porting-foqos.md). It depends on this repository by path.
let package = Package(
    name: "Foqos",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "clarityd", path: "../..")],
    targets: [
        .target(name: "Foqos", dependencies: [.product(name: "SimulatediOS", package: "clarityd")]),
        .testTarget(
            name: "FoqosTests",
            dependencies: ["Foqos", .product(name: "DeviceTesting", package: "clarityd")]),
    ],
    swiftLanguageModes: [.v6]
)
