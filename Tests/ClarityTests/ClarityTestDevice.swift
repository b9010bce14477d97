import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import Clarity

/// The other apps the Clarity suites open (Clarity's own names are ``ClarityKeys``).
enum BundleID {
    static let instagram = "com.burbn.instagram"
    static let tiktok = "com.zhiliaoapp.musically"
    static let messages = "com.apple.MobileSMS"
}

/// A friction layer's shield: its texts, with the seed's two buttons (task 4g).
func frictionShield(title: String, subtitle: String) -> ShieldConfiguration {
    ShieldConfiguration(
        title: title, subtitle: subtitle, primaryButtonLabel: "Open Clarity",
        secondaryButtonLabel: "I Choose to Continue")
}

/// Friction layer 1 reached: the monitor's callback, `frictionLevel` 1 and the awareness notification.
func awarenessNudge(body: String) -> [Effect] {
    [
        .monitorThreshold(activity: "clarity_friction", event: "friction_layer_1"),
        .storeWrite(suite: ClarityKeys.appGroup, key: "frictionLevel", value: .int(1)),
        .notification(title: "Awareness Nudge", body: body),
    ]
}

/// A shielding friction layer reached while `app` is open: the monitor's callback, `frictionLevel`,
/// `store`'s shield on the selection (`app`), and the shield drawn over it.
func frictionLayer(_ layer: Int, store: String, app: String, shield: ShieldConfiguration) -> [Effect] {
    [
        .monitorThreshold(activity: "clarity_friction", event: "friction_layer_\(layer)"),
        .storeWrite(suite: ClarityKeys.appGroup, key: "frictionLevel", value: .int(layer)),
        .shieldApply(store: store, applications: [app], categories: .none),
        .shieldShown(app: app, configuration: shield, source: .extension),
        .appState(locked: false, foregroundApp: app, shieldShown: true),
    ]
}

extension TestDevice {
    /// A Clarity device as the daemon's tests made them: seed 11, Monday 2026-01-05 09:00 UTC;
    /// `thresholdsMinutes` replaces the friction layers' 5, 10, 15, 20, 25 minutes.
    static func clarity(seed: UInt64 = 11, thresholdsMinutes: [Int]? = nil) throws -> TestDevice {
        guard let thresholdsMinutes else { return try TestDevice(app: .clarity, seed: seed) }
        return try TestDevice(
            app: .clarity, settings: ["frictionThresholdsMinutes": .array(thresholdsMinutes.map(StoredValue.int))],
            seed: seed)
    }

    /// Setup, effects unchecked: `names` in the address book (phones +15550000, +15550001…), all
    /// of them important people, and Instagram selected.
    func setUpPeople(_ names: [String] = ["Mom", "Dad"]) throws {
        try withExhaustivity(.off) {
            try send(
                .contactsSet(
                    names.enumerated().map { Contact(id: $1.lowercased(), name: $1, phone: "+1555000\($0)") }))
            try intent("setImportantContacts", ["contacts": .array(names.map { ["id": .string($0.lowercased())] })])
            try intent("selectApps", ["apps": [.string(BundleID.instagram)]])
        }
    }

    /// Setup, effects unchecked: the day at friction layer `layer` (as the monitor would have
    /// written it), then Clarity opened, which issues that layer's challenge; its id.
    @discardableResult
    func challengeAtLayer(_ layer: Int) throws -> String {
        try withExhaustivity(.off) {
            try setValue(.int(layer), forKey: "frictionLevel", effects: [])
            try send(.appOpen(app: ClarityKeys.bundleIdentifier))
        }
        return try challengeID()
    }

    /// Setup, effects unchecked: an outgoing call to `handle` dialled and ringing for `ringing`
    /// seconds, then, when `talking` is given, connected for that many; not ended.
    func placeCall(to handle: String? = nil, ringing: Double = 0, talking: Double?) throws {
        try withExhaustivity(.off) {
            try send(.callDial(handle: handle))
            if ringing > 0 { try advance(seconds: ringing) }
            guard let talking else { return }
            try send(.callConnect(handle: nil))
            try advance(seconds: talking)
        }
    }

    /// The current challenge's id (`app.challenge.id`).
    func challengeID() throws -> String {
        try #require(try appState()["challenge"]?["id"]?.stringValue)
    }
}

/// The ``DeviceError`` `step` throws; nil when it goes through. Any other error is rethrown.
private func deviceError(_ step: () throws -> Void) throws -> DeviceError? {
    do {
        try step()
        return nil
    } catch let error as DeviceError {
        return error
    }
}

/// The reason `step` is refused for (`DeviceError.refused`, `tooManyNetworks`); nil when it goes
/// through or fails otherwise.
func refusal(_ step: () throws -> Void) throws -> String? {
    guard case .refused(let reason, _)? = try deviceError(step) else { return nil }
    return reason
}

/// The argument `step` is refused for (`DeviceError.invalidArgument`, `args.contacts`); nil when
/// it goes through or fails otherwise.
func invalidField(_ step: () throws -> Void) throws -> String? {
    guard case .invalidArgument(let field, _)? = try deviceError(step) else { return nil }
    return field
}
