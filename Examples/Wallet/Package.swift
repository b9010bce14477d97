// swift-tools-version: 6.0
import PackageDescription

/// Wallet: an earn-and-spend Screen Time app with its own server, written against clarityd's
/// simulated iOS (the SDK's `AppServer`). Minutes earned in the main app are
/// synced to the server; the shield spends them to unlock an app. It depends on this repository
/// by path.
let package = Package(
    name: "Wallet",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "clarityd", path: "../..")],
    targets: [
        /// The app: main app, DeviceActivityMonitor, ShieldConfiguration and ShieldAction.
        .target(name: "Wallet", dependencies: [.product(name: "SimulatediOS", package: "clarityd")]),
        /// The server the app talks to: balances per user, over `api.wallet.example`.
        .target(name: "WalletServer", dependencies: [.product(name: "SimulatediOS", package: "clarityd")]),
        /// Where the app and its server meet: the app's registration, naming its server.
        .target(
            name: "WalletApp",
            dependencies: ["Wallet", "WalletServer", .product(name: "SimulatediOS", package: "clarityd")]),
        /// clarityd with Wallet registered beside the built-in apps: `swift run wallet-clarityd`,
        /// then drive it with clarityctl (README.md).
        .executableTarget(
            name: "wallet-clarityd",
            dependencies: [
                "WalletApp", .product(name: "ClarityDaemon", package: "clarityd"),
                .product(name: "BuiltInApps", package: "clarityd"), .product(name: "SimulatediOS", package: "clarityd"),
            ]),
        /// The app and its server step by step, and the sync race explored.
        .testTarget(
            name: "WalletTests",
            dependencies: [
                "Wallet", "WalletServer", "WalletApp", .product(name: "DeviceTesting", package: "clarityd"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
