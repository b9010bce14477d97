import Foundation

/// Per-device settings (PROTOCOL.md, per-device `config`): defaults here, overridden by
/// clarityd.json for all devices, then by `device.create`'s `config` or `device.config`.
public struct DeviceConfig: Sendable, Hashable, Codable {
    /// Memory budgets of the three extensions, in bytes.
    public struct MemoryBudgets: Sendable, Hashable, Codable {
        public var monitor: Int
        public var shieldConfiguration: Int
        public var shieldAction: Int
    }

    /// 6 MiB per extension (BEHAVIOR.md, Platform: the DeviceActivityMonitor limit developers report).
    public var memoryBudgets = MemoryBudgets(monitor: 6 << 20, shieldConfiguration: 6 << 20, shieldAction: 6 << 20)
    /// Charged to every running extension (2 MiB).
    public var baselineBytes = 2 << 20
    /// Platform quirks, each off by default (BEHAVIOR.md, Platform).
    public var quirks: [String: Bool] = [:]
    /// Clarity: minutes of the day's usage at which friction layers 1…5 are reached (project choice).
    public var frictionThresholdsMinutes = [5, 10, 15, 20, 25]
    /// Apps added to the built-in catalog: bundle id → name and category.
    public var apps: [String: CategoryCatalog.Entry] = [:]
    /// `batchedThresholds` quirk: threshold callbacks are held and delivered together at the next
    /// multiple of this many seconds of virtual time.
    public var thresholdBatchIntervalSeconds = 60
    /// `lateDefaultsPropagation` quirk: seconds before an extension's write reaches other processes.
    public var defaultsPropagationDelaySeconds = 1
    /// Whether FamilyControls authorization is granted (DeviceActivity throws `unauthorized` if not).
    public var familyControlsAuthorized = true

    public init() {}

    /// The quirks the simulator knows (BEHAVIOR.md, Platform; docs/decisions.md says which are modelled).
    public static let knownQuirks: Set<String> = [
        "thresholdFiresOnStart", "batchedThresholds", "lateDefaultsPropagation", "emptyDefaultsBeforeFirstUnlock",
    ]

    public func quirk(_ name: String) -> Bool { quirks[name] ?? false }

    /// This config with the fields present in the JSON object `overrides` replaced (fields not
    /// named by this type are ignored, so the whole clarityd.json can be passed).
    public func applying(overrides data: Data) throws -> DeviceConfig {
        let partial = try JSONDecoder().decode(Partial.self, from: data)
        var config = self
        if let budgets = partial.memoryBudgets {
            config.memoryBudgets.monitor = budgets.monitor ?? config.memoryBudgets.monitor
            config.memoryBudgets.shieldConfiguration = budgets.shieldConfiguration ?? config.memoryBudgets.shieldConfiguration
            config.memoryBudgets.shieldAction = budgets.shieldAction ?? config.memoryBudgets.shieldAction
        }
        config.baselineBytes = partial.baselineBytes ?? config.baselineBytes
        if let quirks = partial.quirks {
            for name in quirks.keys where !Self.knownQuirks.contains(name) {
                throw DeviceError.invalidArgument(field: "config.quirks.\(name)", reason: "unknown quirk")
            }
            config.quirks.merge(quirks) { _, new in new }
        }
        if let thresholds = partial.frictionThresholdsMinutes {
            guard thresholds.count == 5, thresholds.allSatisfy({ $0 > 0 }), thresholds == thresholds.sorted(),
                Set(thresholds).count == 5
            else {
                throw DeviceError.invalidArgument(
                    field: "config.frictionThresholdsMinutes", reason: "five increasing positive minute counts")
            }
            config.frictionThresholdsMinutes = thresholds
        }
        config.apps.merge(partial.apps ?? [:]) { _, new in new }
        config.familyControlsAuthorized = partial.familyControlsAuthorized ?? config.familyControlsAuthorized
        config.thresholdBatchIntervalSeconds = partial.thresholdBatchIntervalSeconds ?? config.thresholdBatchIntervalSeconds
        config.defaultsPropagationDelaySeconds =
            partial.defaultsPropagationDelaySeconds ?? config.defaultsPropagationDelaySeconds
        guard config.thresholdBatchIntervalSeconds > 0, config.defaultsPropagationDelaySeconds > 0 else {
            throw DeviceError.invalidArgument(
                field: "config.thresholdBatchIntervalSeconds", reason: "quirk delays must be > 0 seconds")
        }
        for (field, value) in [
            ("memoryBudgets.monitor", config.memoryBudgets.monitor),
            ("memoryBudgets.shieldConfiguration", config.memoryBudgets.shieldConfiguration),
            ("memoryBudgets.shieldAction", config.memoryBudgets.shieldAction), ("baselineBytes", config.baselineBytes),
        ] where value < 0 {
            throw DeviceError.invalidArgument(field: "config.\(field)", reason: "must be ≥ 0 bytes")
        }
        return config
    }

    private struct Partial: Decodable {
        struct Budgets: Decodable {
            var monitor: Int?
            var shieldConfiguration: Int?
            var shieldAction: Int?
        }
        var memoryBudgets: Budgets?
        var baselineBytes: Int?
        var quirks: [String: Bool]?
        var frictionThresholdsMinutes: [Int]?
        var apps: [String: CategoryCatalog.Entry]?
        var familyControlsAuthorized: Bool?
        var thresholdBatchIntervalSeconds: Int?
        var defaultsPropagationDelaySeconds: Int?
    }
}
