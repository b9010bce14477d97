import ControlProtocol
import Foundation
import Testing

@testable import ClarityDaemon
@testable import DeviceActors
@_spi(Host) import SimulatediOS

/// Issue 40: any app may take settings at the device config's top level, under names its
/// registration declares with its defaults: the daemon's decoding takes exactly those names, the
/// app decodes and checks them (a refusal names `config.<member>`), `config.app` wins, and the
/// config echoes them at its top level. Nothing in the host names the app or its settings.
@Suite struct TopLevelSettingsTests {
    /// An app's settings: a daily limit of 1 to 1440 minutes.
    struct Limit: AppConfiguration {
        var limitMinutes = 30
        static let members = ["limitMinutes"]

        func validate() throws(DeviceError) {
            guard (1...1440).contains(limitMinutes) else { throw .invalidArgument(field: "limitMinutes", reason: "1 to 1440") }
        }
    }

    static let limited = AppRegistration(
        description: AppDescription(name: "limited", bundleIdentifier: nil, appGroup: nil, available: true, intents: []),
        settings: Limit.self, topLevelSettings: ["limitMinutes": .int(30)]
    ) { _, _, _ throws(DeviceError) in throw .invalidArgument(field: "app", reason: "never made here") }

    static let catalog = AppCatalog([limited])

    /// `device.create`'s config as the daemon decodes it for `catalog`'s apps.
    static func config(_ config: JSONValue) throws -> DeviceConfig {
        let params = try decodeParams(CreateParams.self, ["config": config], settingNames: catalog.topLevelSettingNames)
        return try DeviceConfig().applying(params.config ?? .init())
    }

    static func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as RPCError {
            return error.data?["field"]?.stringValue
        } catch let DeviceError.invalidArgument(field, _) {
            return field
        } catch {
            return "\(error)"
        }
    }

    @Test func anAppsDeclaredNameIsTakenAtTheTopLevelAndDecodedByTheApp() throws {
        let given = try Self.config(["limitMinutes": 45])
        #expect(given.settings == ["limitMinutes": .int(45)])
        #expect(try JSONWire.value(given)["limitMinutes"] == 45, "echoed at the top level, as given")
        try Self.catalog.check(given, for: "limited")
        #expect(Self.refusal { try Self.catalog.check(try Self.config(["limitMinutes": 0]), for: "limited") } == "config.limitMinutes")
        #expect(Self.refusal { try Self.catalog.check(try Self.config(["limitMinutes": "ten"]), for: "limited") } == "config.limitMinutes")
        let both = try Self.config(["limitMinutes": 0, "app": ["limitMinutes": 60]])
        try Self.catalog.check(both, for: "limited")
        #expect(both.settings(for: Self.limited).values["limitMinutes"] == .int(60), "config.app wins")
        #expect(DeviceConfig().fillingTopLevelDefaults(of: Self.limited).settings == ["limitMinutes": .int(30)])
        #expect(given.fillingTopLevelDefaults(of: Self.limited).settings == ["limitMinutes": .int(45)])
    }

    @Test func aNameNoAppDeclaresIsRefusedAsBefore() {
        #expect(Self.refusal { _ = try Self.config(["limitMinute": 45]) } == "config.limitMinute")
        #expect(Self.refusal { _ = try Self.config(["frictionThresholdsMinutes": [1, 2, 3, 4, 5]]) } == "config.frictionThresholdsMinutes")
    }

    /// A name an app declares that is also one of the config's own fields stays the config's:
    /// never decoded, filled in or echoed as the app's.
    @Test func aDeclaredNameThatIsAConfigFieldStaysTheConfigs() throws {
        let clashing = AppRegistration(
            description: AppDescription(name: "clashing", bundleIdentifier: nil, appGroup: nil, available: true, intents: []),
            settings: Limit.self, topLevelSettings: ["baselineBytes": .int(1)]
        ) { _, _, _ throws(DeviceError) in throw .invalidArgument(field: "app", reason: "never made here") }
        let params = try decodeParams(
            CreateParams.self, ["config": ["baselineBytes": 1024]], settingNames: AppCatalog([clashing]).topLevelSettingNames)
        let config = try DeviceConfig().applying(params.config ?? .init())
        #expect(config.baselineBytes == 1024 && config.settings.isEmpty)
        #expect(config.fillingTopLevelDefaults(of: clashing).settings.isEmpty)
        #expect(try JSONWire.value(config.fillingTopLevelDefaults(of: clashing))["baselineBytes"] == 1024)
    }

    /// A saved config reads back with its top-level settings (they were checked when given).
    @Test func aSavedConfigKeepsItsTopLevelSettings() throws {
        let given = try Self.config(["limitMinutes": 45, "baselineBytes": 1024])
        let saved = try JSONDecoder().decode(DeviceConfig.self, from: JSONEncoder().encode(given))
        #expect(saved == given)
    }
}
