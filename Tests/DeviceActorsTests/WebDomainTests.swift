import DeviceTesting
import ExtensionSandbox
import Foundation
import Testing

@_spi(Host) @testable import SimulatediOS

/// Websites as iOS has them: picked as `WebDomainToken`s, shielded through `shield.webDomains`,
/// counted by `DeviceActivityEvent(webDomains:)`, drawn by `configuration(shielding: WebDomain)`
/// and answered by `handle(action:for: WebDomainToken)`; and a press on a shield drawn through a
/// category reaching `handle(action:for: ActivityCategoryToken)`.
@Suite struct WebDomainTests {
    static let group = "group.com.example.sites"

    struct Pick: IntentInput {
        var sites: [String]
        func validate() throws(DeviceError) {}
    }

    struct SitesMainApp: Sendable {
        let platform: Platform

        func pick(_ sites: [String]) async throws -> String {
            let selection = try platform.familyActivityPicker.selection(applications: [], webDomains: sites)
            try await platform.userDefaults(suiteName: WebDomainTests.group).set(try JSONEncoder().encode(selection), forKey: "selection")
            try await platform.deviceActivityCenter.startMonitoring(
                "daily", during: allDay,
                events: ["browsing": DeviceActivityEvent(applications: [], webDomains: selection.webDomainTokens, threshold: DateComponents(minute: 1))])
            return "picked \(selection.webDomainTokens.count)"
        }

        func pauseEverySocialApp() async throws -> String {
            try await platform.managedSettingsStore(named: "social").setShieldApplicationCategories(.all(except: []))
            return "paused"
        }
    }

    static func selection(_ platform: Platform) async throws -> FamilyActivitySelection {
        let data = try await platform.userDefaults(suiteName: group).data(forKey: "selection") ?? Data()
        return try JSONDecoder().decode(FamilyActivitySelection.self, from: data)
    }

    struct SitesMonitor: DeviceActivityMonitor {
        let platform: Platform
        func eventDidReachThreshold(_ event: DeviceActivityEvent.Name, activity: DeviceActivityName) async throws {
            let picked = try await WebDomainTests.selection(platform)
            try await platform.managedSettingsStore(named: "sites").setShieldWebDomains(tokens: picked.webDomainTokens)
        }
    }

    struct SitesShield: ShieldConfigurationDataSource {
        func configuration(shielding webDomain: WebDomain) async throws -> ShieldConfiguration {
            ShieldConfiguration(title: .init(text: "\(webDomain.domain ?? "This site") can wait"), primaryButtonLabel: .init(text: "Close tab"))
        }
    }

    struct SitesAction: ShieldActionDelegate {
        let platform: Platform
        func handle(action: ShieldButton, for webDomain: WebDomainToken) async throws -> ShieldActionResponse {
            try await WebDomainTests.selection(platform).webDomainTokens.contains(webDomain) ? .close : .none
        }

        func handle(action: ShieldButton, for category: ActivityCategoryToken, application: String) async throws -> ShieldActionResponse {
            category == ActivityCategoryToken(category: "social") && application == "com.burbn.instagram" ? .defer : .none
        }
    }

    struct SitesApp: SimulatedApp {
        let bundleIdentifier = "com.example.sites"
        let appGroup = WebDomainTests.group
        let platform: Platform

        func makeMonitor(executor: WorldActorExecutor) -> any DeviceActivityMonitor { SitesMonitor(platform: platform) }
        func makeShieldConfiguration(executor: WorldActorExecutor) -> any ShieldConfigurationDataSource { SitesShield() }
        func makeShieldAction(executor: WorldActorExecutor) -> any ShieldActionDelegate { SitesAction(platform: platform) }
        var intents: IntentTable {
            IntentTable(
                [
                    AppIntent<SitesMainApp>.named("pick", Pick.self) { app, input in try await app.pick(input.sites) },
                    AppIntent<SitesMainApp>.named("pauseSocial", NoArguments.self) { app, _ in try await app.pauseEverySocialApp() },
                ],
                on: SitesMainApp(platform: platform))
        }
    }

    /// `web.open` and `shield.press` as the wire gives them.
    static func event(_ json: String) throws -> DeviceEvent { try JSONDecoder().decode(DeviceEvent.self, from: Data(json.utf8)) }

    @Test func aPickedWebsiteIsCountedShieldedDrawnAndAnsweredThroughItsToken() throws {
        let device = try TestDevice(appName: "sites", exhaustivity: .kinds(["shield.apply", "shield.shown", "shield.action"])) { platform, _ in
            SitesApp(platform: platform)
        }
        #expect(try device.intent("pick", ["sites": ["Reddit.com"]]) == "picked 1")
        guard case .data(let stored)? = try device.value(forKey: "selection", suite: Self.group) else {
            Issue.record("no selection stored")
            return
        }
        #expect(!String(decoding: stored, as: UTF8.self).contains("reddit"), "the App Group holds opaque tokens")

        try device.send(try Self.event(#"{"type":"web.open","domain":"reddit.com"}"#))
        let blocked = ShieldConfiguration(title: .init(text: "reddit.com can wait"), primaryButtonLabel: .init(text: "Close tab"))
        try device.advance(
            minutes: 1,
            effects: [
                .shieldApply(store: "sites", applications: [], categories: .none, webDomains: ["reddit.com"]),
                .shieldShown(app: "web:reddit.com", configuration: blocked, source: .extension),
            ])
        try device.send(
            try Self.event(#"{"type":"shield.press","domain":"reddit.com","button":"primary"}"#),
            effects: [.shieldAction(app: "web:reddit.com", button: .primary, response: .close)])

        try device.send(.appOpen(app: "web:news.ycombinator.com"))
        #expect(try device.device.shieldConfig(app: "web:news.ycombinator.com").shielded == false, "only the picked site is shielded")
    }

    @Test func categoriesShieldAppsNotWebsitesAndAPressReachesTheCategoryForm() throws {
        let device = try TestDevice(appName: "sites", exhaustivity: .kinds(["shield.action"])) { platform, _ in SitesApp(platform: platform) }
        #expect(try device.intent("pauseSocial") == "paused")
        try device.send(try Self.event(#"{"type":"web.open","domain":"reddit.com"}"#))
        #expect(try device.device.shieldConfig(app: "web:reddit.com").shielded == false, "application categories never cover a website")
        try device.send(.appOpen(app: "com.burbn.instagram"))
        try device.send(
            .shieldPress(app: "com.burbn.instagram", button: .primary),
            effects: [.shieldAction(app: "com.burbn.instagram", button: .primary, response: .defer)])
    }

    @Test func aWebsiteMustBeADomain() {
        for bad in [#""""#, #""https://reddit.com""#, #""reddit.com/r/swift""#, #""red dit.com""#] {
            #expect(throws: DecodingError.self) { try Self.event(#"{"type":"web.open","domain":\#(bad)}"#) }
        }
    }

    /// A domain as iOS keeps one: lowercased, and refused — not kept as given — when it is no
    /// host name (issue 38: `reddit.com\u{0}x`, `\u{202E}reddit.com`, `reddit..com` and
    /// `.reddit.com` were taken, and `REDDIT.com` was another website than `Reddit.com`).
    @Test func aDomainIsLowercasedAndWhatIsNoHostNameIsRefused() throws {
        #expect(try WebDomain.normalized("REDDIT.com") == "reddit.com")
        #expect(try WebDomain.normalized("www.Old.Reddit.com") == "www.old.reddit.com")
        #expect(try WebDomain.normalizedForegroundName("web:REDDIT.com") == "web:reddit.com")
        #expect(try WebDomain.normalizedForegroundName("com.burbn.instagram") == "com.burbn.instagram")
        let refused = [
            "", "reddit.com\u{0}x", "\u{202E}reddit.com", "reddit\u{200B}.com", "reddit..com", ".reddit.com", "reddit.com.",
            "a b/c", "reddit.com:443", "user@reddit.com", "reddit%2ecom", "reddit.com\\", String(repeating: "a", count: 64) + ".com",
            String(repeating: "abc.", count: 64) + "com",
        ]
        for text in refused {
            #expect(throws: WebDomain.InvalidDomain.self, "\(text.debugDescription)") { try WebDomain.normalized(text) }
        }
        #expect(throws: WebDomain.InvalidDomain.self) { try WebDomain.normalizedForegroundName("web:") }
    }

    /// The picker takes what a user types as a domain, kept as iOS keeps it (two spellings of
    /// one website are one token), and refuses what is none, naming which.
    @Test func thePickerKeepsDomainsAsWebOpenDoes() throws {
        let device = try TestDevice(appName: "sites", exhaustivity: .kinds(["shield.apply"])) { platform, _ in SitesApp(platform: platform) }
        #expect(try device.intent("pick", ["sites": ["REDDIT.com", "reddit.com"]]) == "picked 1")
        #expect(throws: DeviceError.invalidArgument(field: "webDomains[1]", reason: "must be a domain such as reddit.com: an empty label (a leading, trailing or double dot)")) {
            try device.device.familyActivityPicker.selection(applications: [], webDomains: ["reddit.com", "reddit..com"])
        }
    }

    @Test func aSelectionStoredBeforeWebsitesReadsBackWithNone() throws {
        let old = #"{"applicationTokens":[],"categoryTokens":[]}"#
        #expect(try JSONDecoder().decode(FamilyActivitySelection.self, from: Data(old.utf8)).webDomainTokens.isEmpty)
    }
}
