// swift-tools-version: 6.0
import PackageDescription

/// clarityd: a simulated iPhone running a Screen Time app, driven over a Unix socket.
/// Foundation and Dispatch only. Layers (docs/architecture.md): ExtensionSandbox (the kernel) ←
/// SimulatediOS (the SDK apps are written against) ← DeviceActors (the device hosting any app) ←
/// ClarityDaemon (the only JSON-RPC layer); one target per app (Clarity) sees only SimulatediOS,
/// and BuiltInApps registers the five beside them; clarityd = ClarityDaemon + BuiltInApps;
/// ClarityDaemon, clarityctl → ControlProtocol.
let package = Package(
    name: "clarityd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "clarityd", targets: ["clarityd"]),
        .executable(name: "clarityctl", targets: ["clarityctl"]),
        /// What an app is written against, and the harness its tests use (Examples/, docs/sdk.md).
        .library(name: "SimulatediOS", targets: ["SimulatediOS"]),
        .library(name: "DeviceTesting", targets: ["DeviceTesting"]),
        /// The daemon with the apps you give it, and the five built-in ones to give beside yours
        /// (docs/sdk.md, "Your own daemon").
        .library(name: "ClarityDaemon", targets: ["ClarityDaemon"]),
        .library(name: "BuiltInApps", targets: ["BuiltInApps"]),
    ],
    targets: [
        .target(name: "ExtensionSandbox", dependencies: ["CMainExecutorHook"]),
        /// The Swift runtime's main-executor hook, set per thread: `@MainActor` code of a world
        /// runs on the world's own main actor (its return type is a C struct Swift cannot declare).
        .target(name: "CMainExecutorHook"),
        /// The simulated iOS that apps are written against: Apple-named handles over the kernel.
        .target(name: "SimulatediOS", dependencies: ["ExtensionSandbox", "JSONValues"]),
        /// One target per app, each seeing only the simulated iOS: never the kernel that runs it
        /// (AppBoundaryTests).
        .target(name: "Clarity", dependencies: ["SimulatediOS"]),
        .target(name: "ScrollKitty", dependencies: ["SimulatediOS"]),
        .target(name: "SpendLess", dependencies: ["SimulatediOS"]),
        .target(name: "MakeHay", dependencies: ["SimulatediOS"]),
        .target(name: "ThePhone", dependencies: ["SimulatediOS"]),
        /// The device that hosts an app: wiring, persistence, scenarios, trace export.
        .target(
            name: "DeviceActors",
            dependencies: ["ExtensionSandbox", "SimulatediOS", "JSONValues", "ScreenRendering"]),
        /// The Phone's backend (seed 001) as a pure, deterministic value: the server The Phone
        /// registers (BuiltInApps gives it to the app).
        .target(name: "ThePhoneBackend", dependencies: ["SimulatediOS"]),
        /// In-process harness for an app's tests: a device, its steps and their exact effects.
        .target(
            name: "DeviceTesting", dependencies: ["DeviceActors", "ScenarioFiles", "SimulatediOS", "ExtensionSandbox", "JSONValues"]),
        /// What the phone's screen shows, as a value, and its SVG drawing: shared by the daemon's
        /// `device.screen` and clarityctl's `screen` and reports (docs/screen.md).
        .target(name: "ScreenRendering"),
        /// A run as one self-contained HTML page, drawn from a `scenario.run` / `scenario.replay`
        /// answer with `report: true` (docs/report.md): clarityctl's `--html`.
        .target(name: "RunReport", dependencies: ["ScreenRendering", "JSONValues"]),
        /// JSON values, their exact encoding and a strict decoder: shared by the protocol and the harness.
        .target(name: "JSONValues"),
        /// The control protocol: JSON-RPC messages, methods, error codes, socket paths.
        .target(name: "ControlProtocol", dependencies: ["JSONValues"]),
        /// Scenario files: the JSON form of a scenario, read by the daemon and by tests alike.
        .target(name: "ScenarioFiles", dependencies: ["DeviceActors", "SimulatediOS", "ExtensionSandbox", "JSONValues"]),
        /// epoll(7) for the event loops: glibc's Swift module leaves <sys/epoll.h> out.
        .target(name: "CEventPoll"),
        /// The daemon: devices, journals, scenarios and the socket, running the apps it is given.
        .target(
            name: "ClarityDaemon",
            dependencies: [
                "CEventPoll", "ControlProtocol", "DeviceActors", "ExtensionSandbox", "ScenarioFiles", "ScreenRendering", "SimulatediOS",
            ]),
        /// The five apps PROTOCOL.md names, registered (the one place that lists them).
        .target(
            name: "BuiltInApps", dependencies: ["DeviceActors", "SimulatediOS", "Clarity", "ScrollKitty", "SpendLess", "MakeHay", "ThePhone", "ThePhoneBackend"]),
        .executableTarget(name: "clarityd", dependencies: ["ClarityDaemon", "BuiltInApps", "SimulatediOS"]),
        .executableTarget(name: "clarityctl", dependencies: ["ControlProtocol", "ScreenRendering", "RunReport"]),
        .testTarget(name: "ExtensionSandboxTests", dependencies: ["ExtensionSandbox"]),
        .testTarget(
            name: "DeviceActorsTests",
            dependencies: [
                "DeviceActors", "DeviceTesting", "SimulatediOS", "Clarity", "ControlProtocol", "ExtensionSandbox", "BuiltInApps",
                "ScreenRendering",
            ]),
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
            dependencies: [
                "DeviceTesting", "SimulatediOS", "ThePhone", "ThePhoneBackend", "BuiltInApps", "ExtensionSandbox", "ControlProtocol", "DeviceActors",
            ]),
        .testTarget(name: "ControlProtocolTests", dependencies: ["ControlProtocol", "JSONValues"]),
        .testTarget(name: "ThePhoneBackendTests", dependencies: ["ThePhoneBackend"]),
        .testTarget(
            name: "ClaritydTests", dependencies: ["ClarityDaemon", "ScenarioFiles", "RunReport", "ScreenRendering", "BuiltInApps", "ThePhoneBackend", "Clarity", "ControlProtocol", "DeviceActors", "SimulatediOS", "ExtensionSandbox"]),
        .testTarget(name: "ClarityctlTests", dependencies: ["clarityctl", "ControlProtocol"]),
        /// Starts the built clarityd and clarityctl and talks to them: shared by the two targets below.
        .target(name: "DaemonTestSupport", dependencies: ["ControlProtocol"], path: "Tests/DaemonTestSupport"),
        .testTarget(name: "IntegrationTests", dependencies: ["ControlProtocol", "DaemonTestSupport"]),
        .testTarget(name: "FuzzTests", dependencies: ["ControlProtocol", "DaemonTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
