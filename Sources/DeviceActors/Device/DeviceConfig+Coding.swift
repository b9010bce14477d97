import Foundation
@_spi(Host) import SimulatediOS

/// The JSON form of a config: its own fields, and beside them at the top level the app settings
/// given there (``DeviceConfig/settings``), which a decoder takes only under the names it is told
/// apps declare (``DeviceConfig/Overrides/SettingNames``), so a misspelt field is still refused.
extension DeviceConfig {
    /// Reads a saved config: fields a later build added take their defaults, so older state
    /// files still load; every member that is none of its fields is a top-level setting (it was
    /// checked when the config was given).
    public init(from decoder: any Decoder) throws {
        self = try DeviceConfig().applying(Overrides(from: decoder, settingNames: .any))
    }

    public func encode(to encoder: any Encoder) throws {
        typealias Field = Overrides.Field
        var fields = encoder.container(keyedBy: Field.self)
        try fields.encode(memoryBudgets, forKey: .memoryBudgets)
        try fields.encode(baselineBytes, forKey: .baselineBytes)
        try fields.encode(quirks, forKey: .quirks)
        try fields.encode(apps, forKey: .apps)
        try fields.encode(familyControlsAuthorized, forKey: .familyControlsAuthorized)
        try fields.encode(thresholdBatchIntervalSeconds, forKey: .thresholdBatchIntervalSeconds)
        try fields.encode(defaultsPropagationDelaySeconds, forKey: .defaultsPropagationDelaySeconds)
        try fields.encode(raceDetector, forKey: .raceDetector)
        try fields.encode(notificationPermission, forKey: .notificationPermission)
        try fields.encodeIfPresent(variant, forKey: .variant)
        try fields.encode(healthAuthorization, forKey: .healthAuthorization)
        try fields.encode(healthBackgroundDeliverySeconds, forKey: .healthBackgroundDeliverySeconds)
        try fields.encodeIfPresent(app, forKey: .app)
        try fields.encode(platform, forKey: .platform)
        try fields.encodeIfPresent(traceBytes, forKey: .traceBytes)
        var settings = encoder.container(keyedBy: SettingName.self)
        // A setting never hides one of the config's own fields (the decoder takes them as fields).
        for (name, value) in self.settings where Field(rawValue: name) == nil {
            try settings.encode(value, forKey: SettingName(name))
        }
    }
}

extension DeviceConfig.Overrides {
    /// Which members besides a config's own fields a decoder takes as top-level app settings.
    public enum SettingNames: Sendable {
        /// Those the apps a daemon or a scenario runs declare (``AppCatalog/topLevelSettingNames``):
        /// any other member is refused as unknown.
        case declared(Set<String>)
        /// Every other member: a config the daemon saved itself.
        case any
    }

    /// The decoder's `userInfo` entry holding the ``SettingNames`` a request or a file may use;
    /// without one, none.
    public static let settingNamesKey = CodingUserInfoKey(rawValue: "DeviceConfig.Overrides.settingNames")!

    /// The config's own fields, as JSON names them.
    enum Field: String, CodingKey, CaseIterable {
        case memoryBudgets, baselineBytes, quirks, apps, familyControlsAuthorized, thresholdBatchIntervalSeconds
        case defaultsPropagationDelaySeconds, raceDetector, notificationPermission, variant, healthAuthorization
        case healthBackgroundDeliverySeconds, app, platform, traceBytes
    }

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, settingNames: decoder.userInfo[Self.settingNamesKey] as? SettingNames ?? .declared([]))
    }

    init(from decoder: any Decoder, settingNames: SettingNames) throws {
        let fields = try decoder.container(keyedBy: Field.self)
        memoryBudgets = try fields.decodeIfPresent(Budgets.self, forKey: .memoryBudgets)
        baselineBytes = try fields.decodeIfPresent(Int.self, forKey: .baselineBytes)
        quirks = try fields.decodeIfPresent([String: Bool].self, forKey: .quirks)
        apps = try fields.decodeIfPresent([String: CategoryCatalog.Entry].self, forKey: .apps)
        familyControlsAuthorized = try fields.decodeIfPresent(Bool.self, forKey: .familyControlsAuthorized)
        thresholdBatchIntervalSeconds = try fields.decodeIfPresent(Int.self, forKey: .thresholdBatchIntervalSeconds)
        defaultsPropagationDelaySeconds = try fields.decodeIfPresent(Int.self, forKey: .defaultsPropagationDelaySeconds)
        raceDetector = try fields.decodeIfPresent(Bool.self, forKey: .raceDetector)
        notificationPermission = try fields.decodeIfPresent(NotificationPermission.self, forKey: .notificationPermission)
        variant = try fields.decodeIfPresent(String.self, forKey: .variant)
        healthAuthorization = try fields.decodeIfPresent(HealthAuthorization.self, forKey: .healthAuthorization)
        healthBackgroundDeliverySeconds = try fields.decodeIfPresent(Int.self, forKey: .healthBackgroundDeliverySeconds)
        app = try fields.decodeIfPresent([String: StoredValue].self, forKey: .app)
        platform = try fields.decodeIfPresent(DevicePlatform.self, forKey: .platform)
        traceBytes = try fields.decodeIfPresent(Int.self, forKey: .traceBytes)
        let others = try decoder.container(keyedBy: SettingName.self)
        let names: [SettingName] =
            switch settingNames {
            case .declared(let names): names.sorted().map(SettingName.init)
            case .any: others.allKeys
            }
        for name in names where Field(rawValue: name.stringValue) == nil {
            settings[name.stringValue] = try others.decodeIfPresent(StoredValue.self, forKey: name)
        }
    }
}

/// A top-level setting's name as a coding key.
struct SettingName: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
