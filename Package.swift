// swift-tools-version: 6.0
import PackageDescription

/// clarityd: a simulated iPhone running a Screen Time app, driven over a Unix socket.
/// Foundation and Dispatch only. Layers (docs/architecture.md): ExtensionSandbox (the kernel) ←
/// SimulatediOS (the SDK apps are written against) ← one target per app (Clarity) ← DeviceActors
/// (the device hosting them) ← clarityd (the only JSON-RPC layer); clarityd, clarityctl → ControlProtocol.
let package = Package(
    name: "clarityd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "clarityd", targets: ["clarityd"]),
        .executable(name: "clarityctl", targets: ["clarityctl"]),
        /// What an app is written against, and the harness its tests use (Examples/, docs/sdk.md).
        .library(name: "SimulatediOS", targets: ["SimulatediOS", "ExtensionSandbox"]),
        .library(name: "DeviceTesting", targets: ["DeviceTesting"]),
    ],
    targets: [
        .target(name: "ExtensionSandbox"),
        /// The simulated iOS that apps are written against: Apple-named handles over the kernel.
        .target(name: "SimulatediOS", dependencies: ["ExtensionSandbox"], path: "Sources/DeviceActors/SimulatediOS"),
        /// One target per app, each seeing only the simulated iOS (and the kernel's actor types).
        .target(name: "Clarity", dependencies: ["SimulatediOS", "ExtensionSandbox"], path: "Sources/DeviceActors/Apps/Clarity"),
        .target(name: "ScrollKitty", dependencies: ["SimulatediOS", "ExtensionSandbox"], path: "Sources/DeviceActors/Apps/ScrollKitty"),
        .target(name: "SpendLess", dependencies: ["SimulatediOS", "ExtensionSandbox"], path: "Sources/DeviceActors/Apps/SpendLess"),
        .target(name: "MakeHay", dependencies: ["SimulatediOS", "ExtensionSandbox"], path: "Sources/DeviceActors/Apps/MakeHay"),
        .target(name: "ThePhone", dependencies: ["SimulatediOS", "ExtensionSandbox"], path: "Sources/DeviceActors/Apps/ThePhone"),
        /// The device that hosts an app: wiring, persistence, scenarios, trace export.
        .target(
            name: "DeviceActors",
            dependencies: ["ExtensionSandbox", "SimulatediOS", "Clarity", "ScrollKitty", "SpendLess", "MakeHay", "ThePhone", "ThePhoneBackend"],
            path: "Sources/DeviceActors",
            exclude: ["SimulatediOS", "Apps", "Testing", "Backend"]),
        /// The Phone's backend (seed 001) as a pure, deterministic value the daemon hosts.
        .target(name: "ThePhoneBackend", path: "Sources/DeviceActors/Backend/ThePhone"),
        /// In-process harness for an app's tests: a device, its steps and their exact effects.
        .target(
            name: "DeviceTesting", dependencies: ["DeviceActors", "SimulatediOS", "ExtensionSandbox", "ControlProtocol"],
            path: "Sources/DeviceActors/Testing"),
        .target(name: "ControlProtocol"),
        .executableTarget(name: "clarityd", dependencies: ["ControlProtocol", "DeviceActors", "SimulatediOS", "ThePhoneBackend"]),
        .executableTarget(name: "clarityctl", dependencies: ["ControlProtocol"]),
        .testTarget(name: "ExtensionSandboxTests", dependencies: ["ExtensionSandbox"]),
        .testTarget(
            name: "DeviceActorsTests",
            dependencies: ["DeviceActors", "DeviceTesting", "SimulatediOS", "Clarity", "ControlProtocol", "ExtensionSandbox"]),
        /// Clarity's behaviour, in process, through the harness apps' authors use.
        .testTarget(name: "ClarityTests", dependencies: ["DeviceTesting", "SimulatediOS", "Clarity", "ExtensionSandbox"]),
        /// ScrollKitty's behaviour, through the same harness.
        .testTarget(
            name: "ScrollKittyTests", dependencies: ["DeviceTesting", "SimulatediOS", "ScrollKitty", "ExtensionSandbox", "ControlProtocol", "DeviceActors"]),
        /// SpendLess's behaviour, through the same harness.
        .testTarget(
            name: "SpendLessTests", dependencies: ["DeviceTesting", "SimulatediOS", "SpendLess", "ExtensionSandbox", "ControlProtocol", "DeviceActors"]),
        /// Make Hay's behaviour, through the same harness.
        .testTarget(
            name: "MakeHayTests", dependencies: ["DeviceTesting", "SimulatediOS", "MakeHay", "ExtensionSandbox", "ControlProtocol", "DeviceActors"]),
        /// The Phone's behaviour (iOS and Android clients), through the same harness.
        .testTarget(
            name: "ThePhoneTests",
            dependencies: ["DeviceTesting", "SimulatediOS", "ThePhone", "ThePhoneBackend", "ExtensionSandbox", "ControlProtocol", "DeviceActors"]),
        .testTarget(name: "ControlProtocolTests", dependencies: ["ControlProtocol"]),
        .testTarget(name: "ThePhoneBackendTests", dependencies: ["ThePhoneBackend"]),
        .testTarget(
            name: "ClaritydTests", dependencies: ["clarityd", "ControlProtocol", "DeviceActors", "SimulatediOS", "ExtensionSandbox"]),
        .testTarget(name: "ClarityctlTests", dependencies: ["clarityctl", "ControlProtocol"]),
        /// Starts the built clarityd and clarityctl and talks to them: shared by the two targets below.
        .target(name: "DaemonTestSupport", dependencies: ["ControlProtocol"], path: "Tests/DaemonTestSupport"),
        .testTarget(name: "IntegrationTests", dependencies: ["ControlProtocol", "DaemonTestSupport"]),
        .testTarget(name: "FuzzTests", dependencies: ["ControlProtocol", "DaemonTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
