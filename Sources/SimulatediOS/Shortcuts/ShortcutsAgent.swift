import ExtensionSandbox

/// What starts a personal automation in the Shortcuts app (seed 001, "The iOS Constraint": the
/// only way an app hears of an unlock). `lock` is a project choice (docs/platform.md, "Shortcuts").
public enum AutomationTrigger: String, Sendable, Codable, CaseIterable, NamedChoice {
    /// "When my iPhone is unlocked".
    case unlock
    /// "When my iPhone is locked".
    case lock
}

/// A personal automation the user made in the Shortcuts app: on `trigger`, run the app's App
/// Shortcut `shortcut`; with `askBeforeRunning` iOS only shows a banner that waits for a tap,
/// and nothing runs (the seed's first "common issue").
public struct Automation: Sendable, Codable, Equatable {
    public let trigger: AutomationTrigger
    public let shortcut: String
    public let askBeforeRunning: Bool

    public init(trigger: AutomationTrigger, shortcut: String, askBeforeRunning: Bool) {
        self.trigger = trigger
        self.shortcut = shortcut
        self.askBeforeRunning = askBeforeRunning
    }
}

/// One App Intent an app offers to Shortcuts (`AppShortcutsProvider`): run in the app's process,
/// in the background (`openAppWhenRun = false`), launching it when it is not in memory.
public struct AppShortcut: Sendable {
    public let name: String
    public let perform: @Sendable () async throws -> Void

    public init(name: String, perform: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.perform = perform
    }
}

/// The Shortcuts app's personal automations (iOS only), kept by the system: they outlive the
/// app's process and are in the device's snapshot. The device runs them on a lock or unlock.
@_spi(Host) public actor ShortcutsAgent: WorldActor {
    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    private let trace: DeviceTrace
    /// One automation per trigger, as the user set them up.
    @_spi(Host) public private(set) var automations: [AutomationTrigger: Automation] = [:]

    @_spi(Host) public init(executor: WorldActorExecutor, trace: DeviceTrace) {
        self.executor = executor
        self.trace = trace
    }

    @_spi(Host) public func restore(_ automations: [Automation]) {
        self.automations = Dictionary(automations.map { ($0.trigger, $0) }) { _, last in last }
    }

    func install(_ automation: Automation) {
        automations[automation.trigger] = automation
        trace.record(.automation(trigger: automation.trigger.rawValue, shortcut: automation.shortcut, outcome: "installed"))
    }

    func remove(_ trigger: AutomationTrigger) -> Bool {
        guard let removed = automations.removeValue(forKey: trigger) else { return false }
        trace.record(.automation(trigger: trigger.rawValue, shortcut: removed.shortcut, outcome: "removed"))
        return true
    }

    /// The automation `trigger` starts, if any; one that asks before running is traced
    /// `askBeforeRunning` and not returned (it waits for a tap nobody gives).
    @_spi(Host) public func fire(_ trigger: AutomationTrigger) -> Automation? {
        guard let automation = automations[trigger] else { return nil }
        guard !automation.askBeforeRunning else {
            trace.record(.automation(trigger: trigger.rawValue, shortcut: automation.shortcut, outcome: "askBeforeRunning"))
            return nil
        }
        trace.record(.automation(trigger: trigger.rawValue, shortcut: automation.shortcut, outcome: "ran"))
        return automation
    }
}

/// The user's side of the Shortcuts app, for an app's intents that stand for the user setting up
/// an automation (an `installAutomation` intent): iOS gives an app no API to do it itself.
public struct ShortcutsAutomations: Sendable {
    @_spi(Host) public let agent: ShortcutsAgent
    @_spi(Host) public let kind: DevicePlatform

    /// The user makes (or replaces) the automation for `automation.trigger`.
    public func install(_ automation: Automation) async throws {
        try kind.require(.ios, "Shortcuts automations")
        try CallbackContext.platformCall(VisibleOperation("write", "Shortcuts", automation.trigger.rawValue))
        await agent.install(automation)
    }

    /// The user deletes the automation for `trigger`; false when there was none.
    @discardableResult
    public func remove(_ trigger: AutomationTrigger) async throws -> Bool {
        try kind.require(.ios, "Shortcuts automations")
        try CallbackContext.platformCall(VisibleOperation("write", "Shortcuts", trigger.rawValue))
        return await agent.remove(trigger)
    }

    /// The automations as the Shortcuts app lists them, by trigger.
    public func list() async throws -> [Automation] {
        try CallbackContext.platformCall(VisibleOperation("read", "Shortcuts", "automations"))
        return await agent.automations.values.sorted { $0.trigger.rawValue > $1.trigger.rawValue }
    }
}
