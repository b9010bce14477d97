import Foundation
import Testing

@testable import DeviceActors
@_spi(Host) import SimulatediOS

/// The config's fields are one table (``DeviceConfig/fields``): a field added without its row
/// fails here, named; each row's override changes its own field and no other; a running device
/// refuses each field fixed at creation with the error it always gave, and takes each live one.
@Suite struct DeviceConfigFieldTests {
    /// One override per row, as a request gives it, each changing its field from the default.
    static let samples: [String: String] = [
        "quirks": #"{"batchedThresholds": true}"#, "apps": #"{"com.example.new": {"name": "New", "category": "social"}}"#,
        "app": #"{"variant": "b"}"#,
        "variant": #""b""#, "platform": #""android""#, "traceBytes": "65536",
        "familyControlsAuthorized": "false", "raceDetector": "true", "notificationPermission": #""deny""#,
        "healthAuthorization": #""denied""#, "healthBackgroundDeliverySeconds": "60", "thresholdBatchIntervalSeconds": "30",
        "defaultsPropagationDelaySeconds": "5", "memoryBudgets": #"{"monitor": 1048576}"#, "baselineBytes": "1024",
    ]

    /// The `settings` row's sample: a top-level setting the test device's app declares, given
    /// under its own name (the bag has no member of its own).
    static let setting = (name: "frictionThresholdsMinutes", value: "[1, 2, 3, 4, 6]")

    /// The override of `name`'s row, as a request gives it.
    static func override(_ name: String) throws -> String {
        if name == "settings" { return "{\"\(setting.name)\": \(setting.value)}" }
        return "{\"\(name)\": \(try #require(samples[name], "DeviceConfigFieldTests.samples needs an override of \(name)"))}"
    }

    /// What `name`'s row is called in the config's JSON and in errors.
    static func member(_ name: String) -> String { name == "settings" ? setting.name : name }

    /// How a refused change of `name`'s row is named: by the member it changes.
    static func refused(_ name: String) -> String { name == "app" ? "app.variant" : member(name) }

    static func overrides(_ json: String) throws -> DeviceConfig.Overrides {
        let decoder = JSONDecoder()
        decoder.userInfo[DeviceConfig.Overrides.settingNamesKey] = DeviceConfig.Overrides.SettingNames.declared([setting.name])
        return try decoder.decode(DeviceConfig.Overrides.self, from: Data(json.utf8))
    }

    /// The config as its JSON's members.
    static func members(_ config: DeviceConfig) throws -> [String: NSObject] {
        try JSONSerialization.jsonObject(with: JSONEncoder().encode(config)) as? [String: NSObject] ?? [:]
    }

    /// Every stored field of the config (its optional ones included, which its JSON leaves out
    /// when nil), and every member its JSON has with them all set.
    static var configFields: Set<String> {
        get throws {
            var full = DeviceConfig()
            full.app = [:]
            full.variant = ""
            full.traceBytes = 0
            return Set(Mirror(reflecting: DeviceConfig()).children.compactMap(\.label)).union(try members(full).keys)
        }
    }

    @Test func everyFieldOfTheConfigIsOneRow() throws {
        let rows = DeviceConfig.fields.map(\.name)
        for field in try Self.configFields.sorted() {
            #expect(rows.filter { $0 == field }.count == 1, "config.\(field) needs one row in DeviceConfig.fields")
        }
        for row in rows {
            #expect(try Self.configFields.contains(row), "the row \(row) names no field of the config")
        }
        let overridable = Set(Mirror(reflecting: DeviceConfig.Overrides()).children.compactMap(\.label))
        #expect(overridable == Set(rows), "DeviceConfig.Overrides gives every row's field, and only those")
    }

    @Test(arguments: DeviceConfig.fields.map(\.name))
    func eachRowChangesItsFieldAndNoOther(_ name: String) throws {
        let before = try Self.members(DeviceConfig())
        let after = try Self.members(DeviceConfig().applying(Self.overrides(Self.override(name))))
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
        #expect(changed == [Self.member(name)])
    }

    @Test(arguments: DeviceConfig.fields.map { ($0.name, $0.change == .fixedAtCreation) })
    func aRunningDeviceRefusesEachFixedFieldAndTakesEachLiveOne(_ name: String, fixed: Bool) throws {
        let device = try makeClarityDevice()
        let created = device.config
        let overrides = try Self.overrides(Self.override(name))
        guard fixed else {
            let config = try device.updateConfig(overrides)
            #expect(try Self.members(config)[name] != Self.members(created)[name])
            return
        }
        #expect(throws: DeviceError.invalidArgument(
            field: "config.\(Self.refused(name))", reason: "fixed when the device is created: give it in device.create's config")
        ) {
            try device.updateConfig(overrides)
        }
        #expect(device.config == created, "nothing of a refused update is taken")
    }

    /// The backend given in the app's spelling is refused in that spelling.
    @Test func theBackendInTheAppsSpellingIsRefusedSoNamed() throws {
        #expect(throws: DeviceError.invalidArgument(
            field: "config.app.backend", reason: "fixed when the device is created: give it in device.create's config")
        ) {
            try makeClarityDevice().updateConfig(Self.overrides(#"{"app": {"backend": "other"}}"#))
        }
    }

    /// With several fields refused, the first in the order they always came is named.
    @Test(arguments: [
        (#"{"baselineBytes": -1, "quirks": {"nope": true}, "traceBytes": 1}"#, "quirks.nope"),
        (#"{"platform": "android", "traceBytes": 1}"#, "traceBytes"),
        (#"{"memoryBudgets": {"monitor": -1}, "healthBackgroundDeliverySeconds": 0, "defaultsPropagationDelaySeconds": 0}"#,
         "healthBackgroundDeliverySeconds"),
        (#"{"baselineBytes": -1, "defaultsPropagationDelaySeconds": 0}"#, "defaultsPropagationDelaySeconds"),
        (#"{"baselineBytes": -1, "memoryBudgets": {"shieldAction": -1}}"#, "memoryBudgets.shieldAction"),
    ])
    func theFirstRefusedFieldIsNamed(_ json: String, field: String) throws {
        let error = #expect(throws: DeviceError.self) { try DeviceConfig().applying(Self.overrides(json)) }
        guard case .invalidArgument(let named, _)? = error else { Issue.record("refused otherwise: \(String(describing: error))"); return }
        #expect(named == field)
    }

    /// A running device refuses the first fixed field in the order it always did.
    @Test func theFirstFixedFieldChangedIsNamed() throws {
        let device = try makeClarityDevice()
        let overrides = try Self.overrides(#"{"platform": "android", "variant": "b", "apps": {"com.example.new": {"name": "N", "category": "social"}}}"#)
        let error = #expect(throws: DeviceError.self) { try device.updateConfig(overrides) }
        guard case .invalidArgument(let named, _)? = error else { Issue.record("refused otherwise: \(String(describing: error))"); return }
        #expect(named == "config.apps")
    }
}
