// swift-tools-version: 6.0
import PackageDescription

/// clarityd: a simulated iPhone running a Screen Time app, driven over a Unix socket.
/// Foundation and Dispatch only; dependency direction is
/// clarityd → DeviceActors → ExtensionSandbox, and clarityd, clarityctl → ControlProtocol.
let package = Package(
    name: "clarityd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "clarityd", targets: ["clarityd"]),
        .executable(name: "clarityctl", targets: ["clarityctl"]),
    ],
    targets: [
        .target(name: "ExtensionSandbox"),
        .target(name: "DeviceActors", dependencies: ["ExtensionSandbox"]),
        .target(name: "ControlProtocol"),
        .executableTarget(name: "clarityd", dependencies: ["ControlProtocol", "DeviceActors"]),
        .executableTarget(name: "clarityctl", dependencies: ["ControlProtocol"]),
        .testTarget(name: "ExtensionSandboxTests", dependencies: ["ExtensionSandbox"]),
        .testTarget(name: "DeviceActorsTests", dependencies: ["DeviceActors", "ControlProtocol", "ExtensionSandbox"]),
        .testTarget(name: "ControlProtocolTests", dependencies: ["ControlProtocol"]),
        .testTarget(name: "ClaritydTests", dependencies: ["clarityd", "ControlProtocol", "DeviceActors"]),
        .testTarget(name: "ClarityctlTests", dependencies: ["clarityctl", "ControlProtocol"]),
        /// Starts the built clarityd and clarityctl and talks to them: shared by the two targets below.
        .target(name: "DaemonTestSupport", dependencies: ["ControlProtocol"], path: "Tests/DaemonTestSupport"),
        .testTarget(name: "IntegrationTests", dependencies: ["ControlProtocol", "DaemonTestSupport"]),
        .testTarget(name: "FuzzTests", dependencies: ["ControlProtocol", "DaemonTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
