import BuiltInApps
import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ThePhone

let thePhone = "com.thephone.app"

// MARK: - Effects the app causes

let syncRequest: Effect = .networkRequest(method: "POST", path: "/events/sync", status: 200, error: nil)
let syncOffline: Effect = .networkRequest(method: "POST", path: "/events/sync", status: nil, error: "notConnectedToInternet")
let verifiedReport: Effect = .networkRequest(method: "PUT", path: "/users/me/tracking-status", status: 200, error: nil)
let locked: Effect = .appState(locked: true, foregroundApp: nil, shieldShown: false)
let unlocked: Effect = .appState(locked: false, foregroundApp: nil, shieldShown: false)
let opened: Effect = .appState(locked: false, foregroundApp: thePhone, shieldShown: false)
let closed: Effect = .appState(locked: false, foregroundApp: nil, shieldShown: false)

/// The automation of `trigger` ran its App Shortcut.
func ran(_ trigger: AutomationTrigger) -> Effect {
    .automation(
        trigger: trigger.rawValue, shortcut: trigger == .unlock ? "RecordUnlockIntent" : "RecordLockIntent", outcome: "ran")
}

/// The app's `eventRecorded` signpost.
func recorded(_ type: EventType, _ source: EventSource = .shortcut) -> Effect {
    .app(event: "eventRecorded", fields: ["eventType": .string(type.rawValue), "source": .string(source.rawValue)])
}

func setupSignpost(_ state: String, reason: String? = nil) -> Effect {
    var fields: [String: StoredValue] = ["state": .string(state)]
    if let reason { fields["reason"] = .string(reason) }
    return .app(event: "setup", fields: fields)
}

func healthSignpost(_ issue: String?, hours: Int? = nil) -> Effect {
    var fields: [String: StoredValue] = ["healthy": .bool(issue == nil), "issue": .string(issue ?? "none")]
    if let hours { fields["hoursSinceLastUnlock"] = .int(hours) }
    return .app(event: "trackingHealth", fields: fields)
}

func statusReport(_ status: Int = 200) -> Effect {
    .networkRequest(method: "PUT", path: "/users/me/tracking-status", status: status, error: nil)
}

func work(_ event: String, attempt: Int = 0) -> Effect { .work(name: "sync", event: event, attempt: attempt) }

/// An Android device's sync work running once to success.
let workRunsOnce: [Effect] = [work("enqueued"), work("started"), syncRequest, work("succeeded")]

// MARK: - Devices

extension TestDevice {
    /// An iPhone running The Phone, signed up at launch as `name`, with the automations
    /// `triggers` made (the seed's is `unlock`; `lock` is the project's).
    static func iPhone(
        _ name: String = "alice", servers: Servers? = nil, start: String = "2026-01-05T09:00:00Z", timeZone: String = "UTC",
        seed: UInt64 = 1, triggers: [AutomationTrigger] = [.unlock, .lock], askBeforeRunning: Bool = false
    ) throws -> TestDevice {
        let device = try TestDevice(app: .thePhone, start: start, timeZone: timeZone, seed: seed, name: name, servers: servers)
        for trigger in triggers {
            let shortcut = trigger == .unlock ? "RecordUnlockIntent" : "RecordLockIntent"
            try device.intent(
                "installAutomation", ["trigger": .string(trigger.rawValue), "askBeforeRunning": .bool(askBeforeRunning)],
                effects: [.automation(trigger: trigger.rawValue, shortcut: shortcut, outcome: "installed")])
        }
        return device
    }

    /// An Android phone running The Phone, signed up at launch as `name`.
    static func androidPhone(
        _ name: String = "bob", servers: Servers? = nil, start: String = "2026-01-05T09:00:00Z", timeZone: String = "UTC",
        seed: UInt64 = 1
    ) throws -> TestDevice {
        var config = DeviceConfig()
        config.platform = .android
        return try TestDevice(
            app: .thePhone, start: start, timeZone: timeZone, seed: seed, config: config, name: name, servers: servers)
    }

    func phone() throws -> ThePhoneState { try appState(as: ThePhoneState.self) }

    /// iOS with both automations, online, not awaiting setup: a lock is recorded and synced.
    func lockRecorded() throws {
        try send(.lock, effects: [locked, ran(.lock), recorded(.lock), syncRequest])
    }

    /// iOS with the unlock automation, online, not awaiting setup.
    func unlockRecorded() throws {
        try send(.unlock, effects: [unlocked, ran(.unlock), recorded(.unlock), syncRequest])
    }

    /// iOS: setup verified by an unlock inside the window (lock, a minute, unlock).
    func verifySetup() throws {
        try intent("setup.begin", effects: [setupSignpost("awaitingVerification")])
        try lockRecorded()
        try advance(minutes: 1)
        try send(
            .unlock,
            effects: [unlocked, ran(.unlock), recorded(.unlock), setupSignpost("verified"), verifiedReport, syncRequest])
    }

    /// Android: a lock the receiver records (no sync: the seed schedules none after a lock).
    func screenOff() throws {
        try send(.lock, effects: [locked, recorded(.lock, .automatic)])
    }

    /// Android, online: an unlock the receiver records, then the sync work runs once.
    func userPresent() throws {
        try send(.unlock, effects: [unlocked, recorded(.unlock, .automatic)] + workRunsOnce)
    }
}

/// ms since 1970 of an ISO-8601 time.
func milliseconds(_ iso: String) -> Int64 {
    Int64((DeviceCalendar.parseISO(iso)!.timeIntervalSince1970 * 1000).rounded())
}

/// The `data.reason` a step was refused with (-32003), nil if it was not refused.
func refusal(_ step: () throws -> Void) -> String? {
    do {
        try step()
        return nil
    } catch DeviceError.refused(let reason, _) {
        return reason
    } catch {
        return "not a refusal: \(error)"
    }
}

/// A request the device sends offline: it fails with `notConnectedToInternet`.
func offlineRequest(_ method: String, _ path: String) -> Effect {
    .networkRequest(method: method, path: path, status: nil, error: "notConnectedToInternet")
}

func request(_ method: String, _ path: String, _ status: Int = 200) -> Effect {
    .networkRequest(method: method, path: path, status: status, error: nil)
}

/// What `account.signIn` / `account.signUp` to another user causes on iOS: the account, its
/// groups, a sync from the start.
func switchedUser(_ method: String = "POST", _ path: String = "/auth/login", _ status: Int = 200) -> [Effect] {
    [request(method, path, status), request("GET", "/groups"), syncRequest]
}
