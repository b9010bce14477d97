import Foundation

/// The files `clarityctl new-app` writes, with `__Name__` (the type prefix), `__name__` (the
/// wire name, lower case) and `__clarityd__` (the clone's path) filled in. The app shields the
/// apps the user chose once they were used 15 minutes in a day, until midnight — the smallest
/// app that has all four processes, as docs/sdk.md describes them.
struct NewAppTemplate {
    let name: String
    let claritydPath: String

    /// `FocusGuard` → `focusguard`: `device.create`'s `app`.
    var wireName: String { name.lowercased() }
    /// The package's daemon executable.
    var daemon: String { wireName + "d" }
    /// The modules the package declares: the app, its daemon and its tests.
    var modules: [String] { [name, daemon, name + "Tests"] }

    /// Path within the package → text, in the order they are written.
    var files: [(String, String)] {
        Self.templates.map { path, text in (fill(path), fill(text)) }
    }

    private func fill(_ text: String) -> String {
        text.replacingOccurrences(of: "__Name__", with: name).replacingOccurrences(of: "__name__", with: wireName)
            .replacingOccurrences(of: "__clarityd__", with: claritydPath)
    }

    private static let templates: [(String, String)] = [
        ("Package.swift", package),
        ("Sources/__Name__/__Name__App.swift", app),
        ("Sources/__Name__/__Name__Keys.swift", keys),
        ("Sources/__Name__/__Name__MainApp.swift", mainApp),
        ("Sources/__Name__/__Name__Intents.swift", intents),
        ("Sources/__Name__/__Name__Monitor.swift", monitor),
        ("Sources/__Name__/__Name__ShieldConfiguration.swift", shieldConfiguration),
        ("Sources/__Name__/__Name__ShieldAction.swift", shieldAction),
        ("Sources/__Name__/__Name__Registration.swift", registration),
        ("Sources/__name__d/main.swift", daemonMain),
        ("Tests/__Name__Tests/__Name__Tests.swift", tests),
        ("scenarios/__name__-limit.json", scenario),
        (".gitignore", ".build/\nPackage.resolved\n.swiftpm/\n"),
    ]

    private static let package = #"""
        // swift-tools-version: 6.0
        import PackageDescription

        /// __Name__: a Screen Time app on clarityd's simulated iOS (docs/sdk.md of clarityd).
        let package = Package(
            name: "__Name__",
            platforms: [.macOS(.v15)],
            dependencies: [.package(name: "clarityd", path: "__clarityd__")],
            targets: [
                /// The app: main app, DeviceActivityMonitor, ShieldConfiguration and ShieldAction.
                .target(name: "__Name__", dependencies: [.product(name: "SimulatediOS", package: "clarityd")]),
                /// clarityd with __Name__ beside the built-in apps: `swift run __name__d`, then clarityctl.
                .executableTarget(
                    name: "__name__d",
                    dependencies: [
                        "__Name__", .product(name: "ClarityDaemon", package: "clarityd"),
                        .product(name: "BuiltInApps", package: "clarityd"), .product(name: "SimulatediOS", package: "clarityd"),
                    ]),
                /// Its behaviour step by step, and its interleavings explored.
                .testTarget(name: "__Name__Tests", dependencies: ["__Name__", .product(name: "DeviceTesting", package: "clarityd")]),
            ],
            swiftLanguageModes: [.v6]
        )

        """#

    private static let app = #"""
        import SimulatediOS

        /// __Name__ as a device runs it: the main app and its three extensions, each its own process,
        /// sharing only the App Group and the ManagedSettings store (`__Name__Keys`).
        public struct __Name__App: SimulatedApp {
            public let bundleIdentifier = __Name__Keys.bundleIdentifier
            public let appGroup = __Name__Keys.appGroup
            private let platform: Platform
            private let mainApp: __Name__MainApp

            public init(platform: Platform, executors: ProcessExecutors) {
                self.platform = platform
                mainApp = __Name__MainApp(executor: executors.makeExecutor(label: "__name__.app"), platform: platform)
            }

            public func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor {
                __Name__Monitor(executor: executor, platform: platform)
            }

            public func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource {
                __Name__ShieldConfiguration(executor: executor, platform: platform)
            }

            public func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate {
                __Name__ShieldAction(executor: executor)
            }

            public var intents: IntentTable { IntentTable(__Name__Intent.all, on: mainApp) }

            /// How clarityd lists it (`daemon.catalog`, `clarityctl intent --help`).
            public static let description = AppDescription(
                name: "__name__", bundleIdentifier: __Name__Keys.bundleIdentifier, appGroup: __Name__Keys.appGroup,
                available: true, intents: __Name__Intent.all.map(\.description))

            public func state() async throws -> any Encodable & Sendable { try await mainApp.status() }
        }

        """#

    private static let keys = #"""
        /// Every name __Name__'s processes share: on iOS they are separate processes, and the App
        /// Group, the ManagedSettings store and the DeviceActivity names are all they have in common.
        public enum __Name__Keys {
            public static let bundleIdentifier = "com.example.__name__"
            public static let appGroup = "group.com.example.__name__"
            /// App Group: the chosen apps' bundle ids, an array of strings.
            public static let chosenApps = "chosenApps"
            /// The ManagedSettings store the limit shields through.
            public static let store = "__name__"
            /// The daily activity (00:00–23:59:59, repeating) and its event.
            public static let activity = "__name___daily"
            public static let limitReached = "limit_reached"
            /// Minutes of the chosen apps a day before the shield.
            public static let limitMinutes = 15
        }

        """#

    private static let mainApp = #"""
        import SimulatediOS

        /// The main app: where the user chooses the apps to limit.
        actor __Name__MainApp: WorldActor {
            nonisolated let executor: WorldActorExecutor
            private let platform: Platform

            init(executor: WorldActorExecutor, platform: Platform) {
                self.executor = executor
                self.platform = platform
            }

            private var defaults: AppGroupDefaults { platform.userDefaults(suiteName: __Name__Keys.appGroup) }

            /// Saves the apps for the extensions and monitors them for the rest of each day.
            func choose(_ apps: [String]) async throws -> __Name__Status {
                try await defaults.set(.array(apps.map(StoredValue.string)), forKey: __Name__Keys.chosenApps)
                try await platform.deviceActivityCenter.startMonitoring(
                    __Name__Keys.activity,
                    during: DeviceActivitySchedule(
                        intervalStart: DateComponentsSpec(hour: 0, minute: 0, second: 0),
                        intervalEnd: DateComponentsSpec(hour: 23, minute: 59, second: 59), repeats: true),
                    events: [
                        __Name__Keys.limitReached: DeviceActivityEvent(
                            applications: Set(apps), threshold: DateComponentsSpec(minute: __Name__Keys.limitMinutes))
                    ])
                return try await status()
            }

            func status() async throws -> __Name__Status {
                __Name__Status(
                    chosenApps: try await defaults.stringArray(forKey: __Name__Keys.chosenApps) ?? [],
                    shielded: !(try await platform.managedSettingsStore(named: __Name__Keys.store).shield().isEmpty))
            }
        }

        /// What the main app shows (`status`, and `device.state`'s `app`).
        public struct __Name__Status: Codable, Sendable, Equatable {
            public var chosenApps: [String]
            public var shielded: Bool
        }

        """#

    private static let intents = #"""
        import SimulatediOS

        /// __Name__'s user actions: each one's arguments as a type, and what it does in the main app.
        typealias __Name__Intent = AppIntent<__Name__MainApp>

        extension __Name__Intent {
            static let all: [__Name__Intent] = [
                .named("chooseApps", ChooseApps.self, "apps=[bundle ids]") { app, input in try await app.choose(input.apps) },
                .named("status", NoArguments.self) { app, _ in try await app.status() },
            ]
        }

        /// __Name__'s user actions as values, for tests: `try device.send(.chooseApps([instagram]))`.
        public struct __Name__Action: AppAction {
            public let name: String
            public let input: any Encodable & Sendable
        }

        extension AppAction where Self == __Name__Action {
            /// Chooses the apps to limit (one to fifty bundle ids).
            public static func chooseApps(_ apps: [String]) -> Self { Self(name: "chooseApps", input: ChooseApps(apps: apps)) }
            /// What is chosen and whether the shield is up.
            public static var status: Self { Self(name: "status", input: NoArguments()) }
        }

        /// `chooseApps`' arguments: one to fifty bundle ids.
        struct ChooseApps: IntentInput, Encodable {
            var apps: [String]

            func validate() throws(DeviceError) {
                guard (1...50).contains(apps.count) else { throw .invalidArgument(field: "args.apps", reason: "one to fifty bundle ids") }
            }
        }

        """#

    private static let monitor = #"""
        import SimulatediOS

        /// The DeviceActivityMonitor extension: shields the chosen apps when today's use of them reaches
        /// the limit, and lifts the shield when a new day's interval starts.
        actor __Name__Monitor: WorldActor, DeviceActivityMonitor {
            nonisolated let executor: WorldActorExecutor
            private let platform: Platform

            init(executor: WorldActorExecutor, platform: Platform) {
                self.executor = executor
                self.platform = platform
            }

            func eventDidReachThreshold(_ event: String, activity: String) async throws {
                guard activity == __Name__Keys.activity, event == __Name__Keys.limitReached else { return }
                let apps = try await platform.userDefaults(suiteName: __Name__Keys.appGroup).stringArray(forKey: __Name__Keys.chosenApps) ?? []
                try await platform.managedSettingsStore(named: __Name__Keys.store).setShield(applications: Set(apps), categories: .none)
            }

            func intervalDidStart(for activity: String) async throws {
                guard activity == __Name__Keys.activity else { return }
                try await platform.managedSettingsStore(named: __Name__Keys.store).clearAllSettings()
            }
        }

        """#

    private static let shieldConfiguration = #"""
        import SimulatediOS

        /// The ShieldConfiguration extension: the shield's texts.
        actor __Name__ShieldConfiguration: WorldActor, ShieldConfigurationDataSource {
            nonisolated let executor: WorldActorExecutor
            private let platform: Platform

            init(executor: WorldActorExecutor, platform: Platform) {
                self.executor = executor
                self.platform = platform
            }

            func configuration(shielding application: String) async throws -> ShieldConfiguration {
                ShieldConfiguration(
                    title: "__Name__",
                    subtitle: "\(__Name__Keys.limitMinutes) minutes of \(platform.catalog.displayName(of: application)) today.",
                    primaryButtonLabel: "Close", secondaryButtonLabel: nil)
            }

            func configuration(shielding application: String, in category: String) async throws -> ShieldConfiguration {
                try await configuration(shielding: application)
            }
        }

        """#

    private static let shieldAction = #"""
        import SimulatediOS

        /// The ShieldAction extension: Close closes the app.
        actor __Name__ShieldAction: WorldActor, ShieldActionDelegate {
            nonisolated let executor: WorldActorExecutor

            init(executor: WorldActorExecutor) {
                self.executor = executor
            }

            func handle(action: ShieldButton, for application: String) async throws -> ShieldActionResponse {
                .close
            }
        }

        """#

    private static let registration = #"""
        import SimulatediOS

        extension AppRegistration {
            /// __Name__ as clarityd runs it: `TestDevice(app: .__name__)`, `Scenario(…, app: .__name__, …)`,
            /// `ClarityDaemon.run(apps: AppRegistration.builtIn + [.__name__])`.
            public static let __name__ = AppRegistration(description: __Name__App.description) { platform, executors in
                __Name__App(platform: platform, executors: executors)
            }
        }

        """#

    private static let daemonMain = #"""
        import BuiltInApps
        import ClarityDaemon
        import __Name__
        import SimulatediOS

        ClarityDaemon.run(apps: AppRegistration.builtIn + [.__name__])

        """#

    private static let tests = #"""
        import DeviceTesting
        import SimulatediOS
        import Testing

        @testable import __Name__

        /// __Name__ on a simulated device: each step lists every effect it causes; then its
        /// interleavings explored.
        @Suite struct __Name__Tests {
            private let instagram = "com.burbn.instagram"

            @Test func theChosenAppIsShieldedOnceItsMinutesAreUsed() throws {
                let device = try TestDevice(app: .__name__)
                try device.send(
                    .chooseApps([instagram]),
                    effects: [
                        .storeWrite(suite: __Name__Keys.appGroup, key: "chosenApps", value: .array([.string(instagram)])),
                        .activityStart(activity: __Name__Keys.activity),
                        .monitorIntervalStart(activity: __Name__Keys.activity),
                    ])
                try device.send(.appOpen(app: instagram), effects: [.appState(locked: false, foregroundApp: instagram, shieldShown: false)])
                try device.advance(
                    minutes: 15,
                    effects: [
                        .monitorThreshold(activity: __Name__Keys.activity, event: __Name__Keys.limitReached),
                        .shieldApply(store: __Name__Keys.store, applications: [instagram], categories: .none),
                        .shieldShown(
                            app: instagram,
                            configuration: ShieldConfiguration(
                                title: "__Name__", subtitle: "15 minutes of Instagram today.", primaryButtonLabel: "Close",
                                secondaryButtonLabel: nil),
                            source: .extension),
                        .appState(locked: false, foregroundApp: instagram, shieldShown: true),
                    ])
                #expect(try device.appState(as: __Name__Status.self) == __Name__Status(chosenApps: [instagram], shielded: true))
            }

            /// The limit is reached while the user looks at the main app's status: whatever the
            /// interleaving of the monitor and the main app, only chosen apps are shielded.
            @Test func everyInterleavingShieldsOnlyChosenApps() throws {
                let instagram = instagram
                let scenario = try Scenario(
                    "limit reached while the status is read", app: .__name__,
                    steps: [
                        .send(.chooseApps([instagram])),
                        .event(.appOpen(app: instagram)),
                        .parallel([[.advance(seconds: 900)], [.advance(seconds: 900), .send(.status)]]),
                        .expect(.shielded(app: instagram, is: true)),
                    ],
                    invariants: [
                        .that("only chosen apps are shielded") { device in
                            guard case .array(let chosen)? = device.value(forKey: "chosenApps") else { return device.shieldedApplications.isEmpty }
                            return device.shieldedApplications.isSubset(of: Set(chosen.compactMap { if case .string(let app) = $0 { app } else { nil } }))
                        }
                    ])
                try scenario.explore(ExplorationPlan(strategy: .pct, schedules: 200))
            }
        }

        """#

    private static let scenario = #"""
        {
          "name": "__name__-limit",
          "app": "__name__",
          "start": "2026-01-05T09:00:00Z",
          "steps": [
            {"intent": {"name": "chooseApps", "args": {"apps": ["com.burbn.instagram"]}}},
            {"event": {"type": "app.open", "app": "com.burbn.instagram"}},
            {"waitUntil": {"shieldShown": {"app": "com.burbn.instagram"}}},
            {"expect": {"shielded": {"app": "com.burbn.instagram", "is": true}}}
          ]
        }

        """#
}
