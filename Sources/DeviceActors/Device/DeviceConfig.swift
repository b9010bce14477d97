import Foundation
@_spi(Host) import SimulatediOS

/// Per-device settings (docs/protocol.md, per-device `config`): defaults here, overridden by
/// clarityd.json for all devices, then by `device.create`'s `config` or `device.config`.
public struct DeviceConfig: Sendable, Hashable, Encodable, Decodable {
    /// Memory budgets of the three extensions, in bytes.
    public struct MemoryBudgets: Sendable, Hashable, Encodable {
        public var monitor: Int
        public var shieldConfiguration: Int
        public var shieldAction: Int
    }

    /// 6 MiB per extension (docs/platform.md: the DeviceActivityMonitor limit developers report).
    public var memoryBudgets = MemoryBudgets(monitor: 6 << 20, shieldConfiguration: 6 << 20, shieldAction: 6 << 20)
    /// Charged to every running extension (2 MiB).
    public var baselineBytes = 2 << 20
    /// Platform quirks, each off by default (docs/platform.md).
    public var quirks: [String: Bool] = [:]
    /// Apps added to the built-in catalog: bundle id → name and category.
    public var apps: [String: CategoryCatalog.Entry] = [:]
    /// `batchedThresholds` quirk: threshold callbacks are held and delivered together at the next
    /// multiple of this many seconds of virtual time.
    public var thresholdBatchIntervalSeconds = 60
    /// `lateDefaultsPropagation` quirk: seconds before an extension's write reaches other processes.
    public var defaultsPropagationDelaySeconds = 1
    /// Whether FamilyControls authorization is granted (DeviceActivity throws `unauthorized` if not).
    public var familyControlsAuthorized = true
    /// App settings given at the config's top level, under names an app's registration declares
    /// (``AppRegistration/topLevelSettings``): the app decodes and checks them when its device is
    /// made, `config.app` winning. Written at the top level beside the fields here, not as a
    /// member of their own; a device fills in its primary app's defaults for those not given.
    public var settings: [String: StoredValue] = [:]
    /// The app's own settings (`config.app`), decoded by the app's ``AppConfiguration`` type when
    /// the device is created; nil when none were given (so configs without them encode as before).
    public var app: [String: StoredValue]?
    /// The app's `variant` in its top-level spelling (`config.variant`, docs/protocol.md,
    /// "Per-device config"), the same as `config.app.variant` (which wins when both are given); nil
    /// when not given.
    public var variant: String?
    /// The App Group race detector: lost updates across processes are traced as `race`, and
    /// main-app reads as `store.read` (docs/platform.md). Off by default, so traces stay as they were.
    public var raceDetector = false
    /// The user's answer when the app asks to post notifications (docs/platform.md,
    /// "Notifications"): `allow` by default; `deny` suppresses them. An app that never asks shows
    /// none either way.
    public var notificationPermission = NotificationPermission.allow
    /// HealthKit read access (docs/platform.md, "HealthKit"): `granted` by default; `denied` /
    /// `notDetermined` make queries succeed with no data, as Apple hides a read denial.
    public var healthAuthorization = HealthAuthorization.granted
    /// With the main app out of memory, how long after the first undelivered HealthKit sample the
    /// system relaunches it to deliver (`.hourly`, docs/platform.md, "HealthKit"): 1 s to a week,
    /// default 3600.
    public var healthBackgroundDeliverySeconds = 3600
    /// The operating system (`device.create`'s `platform`, docs/platform.md, "Android"): `ios` by
    /// default, `android` for an app's Android client. Fixed at creation.
    public var platform = DevicePlatform.ios
    /// The most bytes the device's trace keeps (estimated; the oldest entries go first): nil for
    /// ``DeviceTrace/byteCapacity`` (24 MiB). A daemon hosting many devices bounds its memory
    /// with it (100 devices × 1 MiB). Taken when the device is made or restored.
    public var traceBytes: Int?

    public init() {}

    /// The quirks the simulator knows (docs/platform.md; docs/decisions.md says which are modelled).
    public static let knownQuirks: Set<String> = [
        "thresholdFiresOnStart", "batchedThresholds", "lateDefaultsPropagation", "emptyDefaultsBeforeFirstUnlock",
        "unstableTokens",
    ]

    public func quirk(_ name: String) -> Bool { quirks[name] ?? false }

    /// The range of a quirk's delay (`thresholdBatchIntervalSeconds`, `defaultsPropagationDelaySeconds`): up to a day.
    static let quirkDelaySeconds = 1...86_400
    /// The range of a memory budget or the baseline: up to 1 TiB, so the ledger's sums cannot overflow.
    static let bytes = 0...(1 << 40)
    /// Why a memory budget or the baseline outside ``bytes`` is refused.
    static let bytesReason = "0 to \(bytes.upperBound) bytes (1 TiB)"
    /// The range of ``traceBytes``: 64 KiB to 1 GiB.
    static let traceBytesRange = (64 << 10)...(1 << 30)

    /// This config with the fields set in `overrides` replaced; field names in errors are
    /// relative to the config object (`quirks.batchedThrusholds`). Every row of ``fields``
    /// merges, then every row checks.
    public func applying(_ overrides: Overrides) throws(DeviceError) -> DeviceConfig {
        var config = self
        for field in Self.fields { try field.merge(&config, overrides) }
        for field in Self.fields { try field.check(config) }
        return config
    }

    /// As ``applying(_:)``, on a running device (`device.config`): a change to a field fixed at
    /// creation is refused, named as `overrides` spelt it.
    func applyingLive(_ overrides: Overrides) throws(DeviceError) -> DeviceConfig {
        let updated = try applying(overrides)
        for field in Self.fields where field.change == .fixedAtCreation && field.differs(updated, self) {
            throw .invalidArgument(
                field: field.spelling(overrides, self, updated), reason: "fixed when the device is created: give it in device.create's config")
        }
        return updated
    }

    /// Every field, once: how it merges, what it must hold, whether a running device takes a
    /// change. In this order the errors come as they always did: merges before checks, and the
    /// first refused field first. The catalog (`apps`) and the app's settings are built into the
    /// device when it is made.
    static let fields: [DeviceConfigField] = [
        DeviceConfigField("quirks", \.quirks) { config, overrides throws(DeviceError) in
            guard let quirks = overrides.quirks else { return }
            for name in quirks.keys.sorted() where !knownQuirks.contains(name) {
                let known = knownQuirks.sorted().joined(separator: ", ")
                throw DeviceError.invalidArgument(field: "quirks.\(name)", reason: "unknown quirk (known: \(known))")
            }
            config.quirks.merge(quirks) { _, new in new }
        },
        DeviceConfigField("apps", \.apps, .fixedAtCreation) { config, overrides in
            config.apps.merge(overrides.apps ?? [:]) { _, new in new }
        },
        // The top-level app settings: a change names the first setting it changes.
        DeviceConfigField(
            "settings", \.settings, .fixedAtCreation,
            spelling: { _, before, after in after.settings.keys.sorted().first { after.settings[$0] != before.settings[$0] } ?? "settings" }
        ) { config, overrides in
            config.settings.merge(overrides.settings) { _, new in new }
        },
        // A change names the first member it changes (`app.backend`).
        DeviceConfigField(
            "app", \.app, .fixedAtCreation,
            spelling: { _, before, after in
                let (old, new) = (before.app ?? [:], after.app ?? [:])
                return new.keys.sorted().first { new[$0] != old[$0] }.map { "app." + $0 } ?? "app"
            }
        ) { config, overrides in
            if let app = overrides.app { config.app = (config.app ?? [:]).merging(app) { _, new in new } }
        },
        DeviceConfigField("variant", \.variant, .fixedAtCreation) { config, overrides in
            config.variant = overrides.variant ?? config.variant
        },
        .replaced("platform", \.platform, by: \.platform, .fixedAtCreation),
        // Taken when the device is next made or restored.
        DeviceConfigField("traceBytes", \.traceBytes) { config, overrides throws(DeviceError) in
            guard let traceBytes = overrides.traceBytes else { return }
            guard traceBytesRange.contains(traceBytes) else {
                throw DeviceError.invalidArgument(field: "traceBytes", reason: "65536 to 1073741824 bytes (64 KiB to 1 GiB)")
            }
            config.traceBytes = traceBytes
        },
        .replaced("familyControlsAuthorized", \.familyControlsAuthorized, by: \.familyControlsAuthorized),
        .replaced("raceDetector", \.raceDetector, by: \.raceDetector),
        .replaced("notificationPermission", \.notificationPermission, by: \.notificationPermission),
        .replaced("healthAuthorization", \.healthAuthorization, by: \.healthAuthorization),
        .replaced(
            "healthBackgroundDeliverySeconds", \.healthBackgroundDeliverySeconds, by: \.healthBackgroundDeliverySeconds,
            within: 1...604_800, reason: "1 to 604800 seconds (a week)"),
        .replaced(
            "thresholdBatchIntervalSeconds", \.thresholdBatchIntervalSeconds, by: \.thresholdBatchIntervalSeconds,
            within: quirkDelaySeconds, reason: "1 to 86400 seconds"),
        .replaced(
            "defaultsPropagationDelaySeconds", \.defaultsPropagationDelaySeconds, by: \.defaultsPropagationDelaySeconds,
            within: quirkDelaySeconds, reason: "1 to 86400 seconds"),
        DeviceConfigField(
            "memoryBudgets", \.memoryBudgets,
            check: { config throws(DeviceError) in
                for (field, value) in [
                    ("memoryBudgets.monitor", config.memoryBudgets.monitor),
                    ("memoryBudgets.shieldConfiguration", config.memoryBudgets.shieldConfiguration),
                    ("memoryBudgets.shieldAction", config.memoryBudgets.shieldAction),
                ] where !bytes.contains(value) {
                    throw .invalidArgument(field: field, reason: bytesReason)
                }
            }
        ) { config, overrides in
            guard let budgets = overrides.memoryBudgets else { return }
            config.memoryBudgets.monitor = budgets.monitor ?? config.memoryBudgets.monitor
            config.memoryBudgets.shieldConfiguration = budgets.shieldConfiguration ?? config.memoryBudgets.shieldConfiguration
            config.memoryBudgets.shieldAction = budgets.shieldAction ?? config.memoryBudgets.shieldAction
        },
        .replaced("baselineBytes", \.baselineBytes, by: \.baselineBytes, within: bytes, reason: bytesReason),
    ]

    /// Per-device overrides as a request or clarityd.json gives them: every field optional.
    /// Decoded strictly by the daemon, so a misspelt field is refused, not ignored.
    public struct Overrides: Sendable, Decodable {
        public struct Budgets: Sendable, Decodable {
            public var monitor: Int?
            public var shieldConfiguration: Int?
            public var shieldAction: Int?
        }

        public var memoryBudgets: Budgets?
        public var baselineBytes: Int?
        public var quirks: [String: Bool]?
        public var apps: [String: CategoryCatalog.Entry]?
        public var familyControlsAuthorized: Bool?
        public var thresholdBatchIntervalSeconds: Int?
        public var defaultsPropagationDelaySeconds: Int?
        public var raceDetector: Bool?
        public var notificationPermission: NotificationPermission?
        public var variant: String?
        public var healthAuthorization: HealthAuthorization?
        public var healthBackgroundDeliverySeconds: Int?
        public var app: [String: StoredValue]?
        public var platform: DevicePlatform?
        public var traceBytes: Int?
        /// The top-level app settings given (``DeviceConfig/settings``).
        public var settings: [String: StoredValue] = [:]

        public init() {}
    }
}
