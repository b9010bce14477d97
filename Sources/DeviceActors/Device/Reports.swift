import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// What an input caused: the time after it and its effects, in order (`event`, `clock.advance`,
/// `store.set`, `activity.*`).
public struct DeviceOutcome: Sendable, Encodable {
    public let t: Double
    public let time: String
    public let effects: [TracedEffect]
}

/// What an intent returned, with its effects.
public struct IntentOutcome: Sendable, Encodable {
    public let t: Double
    public let time: String
    public let result: any Encodable & Sendable
    public let effects: [TracedEffect]

    enum CodingKeys: String, CodingKey { case t, time, result, effects }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(t, forKey: .t)
        try c.encode(time, forKey: .time)
        try c.encode(result, forKey: .result)
        try c.encode(effects, forKey: .effects)
    }
}

/// `shields.get`: the effective shield and each store's own settings.
public struct ShieldsReport: Sendable, Encodable {
    public struct Effective: Sendable, Encodable {
        public let applications: [String]
        public let categories: [String]
    }

    public let effective: Effective
    /// The primary app's stores, by name.
    public let stores: [String: ShieldSettings]
    /// Each installed app's stores, by app then store name, on a device with several apps
    /// (absent with one).
    public var apps: [String: [String: ShieldSettings]]?
}

/// `shield.config`: what the shield would show for an app now.
public struct ShieldConfigReport: Sendable, Encodable {
    public let app: String
    public let shielded: Bool
    public let title: String?
    public let subtitle: String?
    public let primaryButtonLabel: String?
    public let secondaryButtonLabel: String?
    /// `extension` or `systemDefault` (the extension was jetsammed); nil when not shielded.
    public let source: ShieldConfigurationSource?
    /// The shield's look beyond its texts, when the app gave one (absent otherwise).
    public var appearance: ShieldAppearance?

    enum CodingKeys: String, CodingKey {
        case app, shielded, title, subtitle, primaryButtonLabel, secondaryButtonLabel, source, appearance
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(app, forKey: .app)
        try c.encode(shielded, forKey: .shielded)
        try c.encode(title, forKey: .title)
        try c.encode(subtitle, forKey: .subtitle)
        try c.encode(primaryButtonLabel, forKey: .primaryButtonLabel)
        try c.encode(secondaryButtonLabel, forKey: .secondaryButtonLabel)
        try c.encode(source, forKey: .source)
        try c.encodeIfPresent(appearance, forKey: .appearance)
    }
}

/// `sandbox.list`: one extension's sandbox.
public struct SandboxReport: Sendable, Encodable {
    public let `extension`: String
    public let state: SandboxState
    public let budgetBytes: Int
    public let usedBytes: Int
    public let peakBytes: Int
    public let launches: Int
    public let jetsams: Int
    /// The app the extension belongs to, on a device with several apps (absent with one).
    public var app: String?
}

/// `activity.list`: one monitored activity.
public struct ActivityReport: Sendable, Encodable {
    public let name: String
    public let schedule: DeviceActivitySchedule
    public let events: [String: DeviceActivityEvent]
    /// `waiting`, `active` or `finished`.
    public let phase: String
    /// The current (or next) interval, ISO-8601.
    public let intervalStart: String?
    public let intervalEnd: String?
    /// Seconds of usage counted toward each event in the current interval.
    public let progress: [String: Double]
}

/// `device.state`: what the device looks like now.
public struct DeviceStateReport: Sendable, Encodable {
    public let device: String
    public let app: String
    public let t: Double
    public let time: String
    public let locked: Bool
    public let foregroundApp: String?
    public let shieldShown: Bool
    public let wifi: String?
    public let call: CallState?
    public let contacts: [Contact]
    public let focusMode: Bool
    /// The app's notification authorization (`notDetermined`, `denied`, `authorized`).
    public let notifications: UNAuthorizationStatus
    /// Internet reachability (`network.offline` / `network.online`, docs/platform.md, "Network").
    public let online: Bool
    /// The operating system (`ios`, or `android` for an app's Android client).
    public let platform: DevicePlatform
    public let shields: ShieldsReport.Effective
    public let usageToday: [String: Double]
    public let usageTodayByCategory: [String: Double]
    public let sandboxes: [SandboxReport]
    /// The primary app's own state.
    public let appState: any Encodable & Sendable
    /// Each installed app, on a device with several (absent with one).
    public var apps: [InstalledAppReport]?

    enum CodingKeys: String, CodingKey {
        case device, app, t, time, locked, foregroundApp, shieldShown, wifi, call, contacts, focusMode, notifications, online,
            platform, shields,
            usageToday,
            usageTodayByCategory, sandboxes, apps
        case appName = "appName"
    }

    /// `app` on the wire is the app-specific state (docs/protocol.md); the app's name is `appName`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(device, forKey: .device)
        try c.encode(app, forKey: .appName)
        try c.encode(t, forKey: .t)
        try c.encode(time, forKey: .time)
        try c.encode(locked, forKey: .locked)
        try c.encode(foregroundApp, forKey: .foregroundApp)
        try c.encode(shieldShown, forKey: .shieldShown)
        try c.encode(wifi, forKey: .wifi)
        try c.encode(call, forKey: .call)
        try c.encode(contacts, forKey: .contacts)
        try c.encode(focusMode, forKey: .focusMode)
        try c.encode(notifications, forKey: .notifications)
        try c.encode(online, forKey: .online)
        try c.encode(platform, forKey: .platform)
        try c.encode(shields, forKey: .shields)
        try c.encode(usageToday, forKey: .usageToday)
        try c.encode(usageTodayByCategory, forKey: .usageTodayByCategory)
        try c.encode(sandboxes, forKey: .sandboxes)
        try c.encode(appState, forKey: .app)
        try c.encodeIfPresent(apps, forKey: .apps)
    }
}

/// One app of a device with several (`device.state`'s `apps`): its names and its own state.
public struct InstalledAppReport: Sendable, Encodable {
    public let name: String
    public let bundleIdentifier: String
    public let appGroup: String
    public let state: any Encodable & Sendable

    private enum CodingKeys: String, CodingKey { case name, bundleIdentifier, appGroup, state }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(bundleIdentifier, forKey: .bundleIdentifier)
        try c.encode(appGroup, forKey: .appGroup)
        try c.encode(state, forKey: .state)
    }
}

/// `device.list` / `device.create`: a device in brief.
public struct DeviceSummary: Sendable, Encodable {
    public let name: String
    /// The primary app.
    public let app: String
    /// Every installed app, on a device with several (absent with one).
    public var apps: [String]?
    /// The operating system (`ios`, or `android` for an app's Android client).
    public let platform: DevicePlatform
    public let clock: String
    public let seed: UInt64
    public let timezone: String
    public let start: String
    public let t: Double
    public let time: String
}
