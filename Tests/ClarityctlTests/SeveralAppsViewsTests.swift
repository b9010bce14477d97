import ControlProtocol
import Testing

@testable import clarityctl

/// What `shields`, `device state`, `device list` and `device create` print for a person, as the
/// commands parse and show the daemon's answers: every installed app's stores and state, and
/// each device's platform.
@Suite struct SeveralAppsViewsTests {
    private static let kittyStore: JSONValue = ["applicationCategories": ["policy": "none"], "applications": ["com.burbn.instagram"]]
    private static let shoppingStore: JSONValue = ["applicationCategories": ["policy": "none"], "applications": ["com.amazon.Amazon"]]

    /// `shields.get` of a device with ScrollKitty (primary) and SpendLess, each shielding one app,
    /// and a third app whose stores hold nothing.
    private static let shields: JSONValue = [
        "effective": ["applications": ["com.amazon.Amazon", "com.burbn.instagram"], "categories": []],
        "stores": ["scrollkitty": kittyStore],
        "apps": ["scrollkitty": ["scrollkitty": kittyStore], "spendless": ["shopping": shoppingStore], "makehay": [:]],
    ]

    private func lines<Command: RequestCommand>(_ type: Command.Type, _ words: [String], answer: JSONValue) throws -> [String] {
        try parsedCommand(type, words).presentation.lines(for: answer)
    }

    @Test func shieldsShowsEveryInstalledAppsStoresGroupedByApp() throws {
        #expect(
            try lines(ShieldsGet.self, ["--device", "both"], answer: Self.shields) == [
                "app          store        applications                            categories  applicationCategories",
                "-            (effective)  com.amazon.Amazon, com.burbn.instagram  (none)      -",
                "makehay      (none)       -                                       -           -",
                "scrollkitty  scrollkitty  com.burbn.instagram                     -           {\"policy\":\"none\"}",
                "spendless    shopping     com.amazon.Amazon                       -           {\"policy\":\"none\"}",
            ])
    }

    @Test func shieldsOfOneAppReadAsBefore() throws {
        var one = Self.shields.objectValue ?? [:]
        one["apps"] = nil
        #expect(
            try lines(ShieldsGet.self, [], answer: .object(one)) == [
                "store        applications                            categories  applicationCategories",
                "(effective)  com.amazon.Amazon, com.burbn.instagram  (none)      -",
                "scrollkitty  com.burbn.instagram                     -           {\"policy\":\"none\"}",
            ])
    }

    @Test func deviceStateShowsEachAppsStateAsNestedLinesThePrimaryFirst() throws {
        let kitty: JSONValue = ["totalHP": 90, "focusWindow": ["startHour": 22, "endHour": 7]]
        let shop: JSONValue = ["selectedApps": ["com.amazon.Amazon"], "intervention": nil]
        let state: JSONValue = [
            "device": "both", "appName": "scrollkitty", "locked": false, "app": kitty,
            "apps": [
                ["name": "scrollkitty", "bundleIdentifier": "com.scrollkitty.app", "appGroup": "group.com.scrollkitty.app", "state": kitty],
                ["name": "spendless", "bundleIdentifier": "com.spendless.app", "appGroup": "group.com.spendless.data", "state": shop],
                ["name": "quiet", "state": [:]],
            ],
        ]
        #expect(
            try lines(DeviceState.self, ["--device", "both"], answer: state) == [
                "device:  both",
                "appName: scrollkitty",
                "locked:  false",
                "apps:",
                "  scrollkitty (primary; com.scrollkitty.app, group.com.scrollkitty.app):",
                "    totalHP: 90",
                "    focusWindow:",
                "      endHour:   7",
                "      startHour: 22",
                "  spendless (com.spendless.app, group.com.spendless.data):",
                "    intervention: null",
                "    selectedApps: com.amazon.Amazon",
                "  quiet: {}",
            ])
    }

    @Test func deviceStateOfOneAppKeepsItsAppBlock() throws {
        let state: JSONValue = ["device": "kitty", "app": ["totalHP": 90]]
        #expect(try lines(DeviceState.self, [], answer: state) == ["device: kitty", "app:", "  totalHP: 90"])
    }

    @Test func deviceListAndCreateShowThePlatform() throws {
        let both: JSONValue = [
            "name": "both", "app": "scrollkitty", "apps": ["scrollkitty", "spendless"], "platform": "ios", "clock": "virtual",
            "seed": 0, "start": "2026-01-05T09:00:00Z", "t": 0, "time": "2026-01-05T09:00:00Z", "timezone": "UTC",
        ]
        var bob = both.objectValue ?? [:]
        bob["name"] = "bob"
        bob["app"] = "thephone"
        bob["apps"] = nil
        bob["platform"] = "android"
        #expect(
            try lines(DeviceList.self, [], answer: [both, .object(bob)]) == [
                "name  app          apps                    platform  t  time                  clock    seed  start                 timezone",
                "both  scrollkitty  scrollkitty, spendless  ios       0  2026-01-05T09:00:00Z  virtual  0     2026-01-05T09:00:00Z  UTC",
                "bob   thephone     -                       android   0  2026-01-05T09:00:00Z  virtual  0     2026-01-05T09:00:00Z  UTC",
            ])
        #expect(try lines(DeviceCreate.self, ["bob", "--app", "thephone"], answer: .object(bob)).contains("platform: android"))
    }
}
