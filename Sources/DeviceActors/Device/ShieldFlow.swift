@_spi(Host) import SimulatediOS

/// The shield flow as a state machine (docs/platform.md, "Shield flow"): the lock, the frontmost
/// app and whether its shield shows. Pure: each input returns the ``Action``s SpringBoard then
/// performs, in order (asking the extensions, tracing, telling DeviceActivity whose usage counts).
///
/// An app that is frontmost while a store shields it is covered by its shield; usage counts only
/// for an uncovered frontmost app on an unlocked device.
struct ShieldFlow: Equatable {
    /// What the flow remembers between inputs: what `app.state` traces.
    struct State: Equatable {
        var locked = false
        var foregroundApp: String?
        var shieldShown = false
    }

    /// Changed only by the inputs below.
    private(set) var state: State

    enum Action: Equatable {
        /// Trace `app.state` with the state as it is when the action is performed.
        case traceAppState
        /// Tell DeviceActivity whether the device is in use (unlocked).
        case setInUse(Bool)
        /// Tell the App Group whether the device was unlocked since boot (data protection).
        case setUnlockedSinceBoot(Bool)
        /// Trace `device.reboot` and end the three extension processes.
        case reboot
        /// The main app became active (its bundle was opened).
        case becomeActive
        /// Look up what shields ``ShieldFlow/appToCheck`` now and answer ``ShieldFlow/refresh(_:shieldedBy:)``.
        case refresh
        /// Ask ShieldConfiguration for the app's shield (as shielded by `reason`), trace it shown,
        /// then trace `app.state`.
        case showShield(app: String, reason: ShieldReason)
        /// Tell DeviceActivity whose usage counts: `app` unless its shield shows by then (nil: none).
        case countUsage(app: String?)
    }

    /// Why an input is refused.
    enum Refusal: Error, Equatable {
        case deviceLocked, notForeground(String), noShieldShown(String)

        var error: DeviceError {
            switch self {
            case .deviceLocked: .refused(reason: "deviceLocked", message: "unlock the device before opening an app")
            case .notForeground(let app): .refused(reason: "notForeground", message: "\(app) is not the frontmost app")
            case .noShieldShown(let app): .refused(reason: "noShieldShown", message: "no shield is showing for \(app)")
            }
        }
    }

    /// The state a snapshot saved (the shield is looked up again by the first refresh).
    init(locked: Bool = false, foregroundApp: String? = nil) {
        state = State(locked: locked, foregroundApp: foregroundApp)
    }

    mutating func lock() -> [Action] {
        state.locked = true
        return [.traceAppState, .setInUse(false), .refresh]
    }

    mutating func unlock() -> [Action] {
        state.locked = false
        return [.traceAppState, .setUnlockedSinceBoot(true), .setInUse(true), .refresh]
    }

    /// A reboot: locked, at the home screen, no extension running, data protected again.
    mutating func reboot() -> [Action] {
        state.locked = true
        state.foregroundApp = nil
        state.shieldShown = false
        return [.reboot, .traceAppState, .setUnlockedSinceBoot(false), .setInUse(false), .refresh]
    }

    /// `app.open` (or a URL bringing `app` to the front): refused on a locked device.
    mutating func open(_ app: String, mainApp: String) -> Result<[Action], Refusal> {
        guard !state.locked else { return .failure(.deviceLocked) }
        return .success(bringToFront(app, mainApp: mainApp))
    }

    /// Makes `app` frontmost, uncovered until the refresh looks at the shields.
    mutating func bringToFront(_ app: String, mainApp: String) -> [Action] {
        state.foregroundApp = app
        state.shieldShown = false
        return [.traceAppState] + (app == mainApp ? [.becomeActive] : []) + [.refresh]
    }

    /// `app.close`: back to the home screen; only the frontmost app can be closed.
    mutating func close(_ app: String) -> Result<[Action], Refusal> {
        guard state.foregroundApp == app else { return .failure(.notForeground(app)) }
        state.foregroundApp = nil
        state.shieldShown = false
        return .success([.traceAppState, .refresh])
    }

    /// Whether a shield button can be pressed on `app`: only on its shield, showing.
    func canPress(on app: String) -> Refusal? {
        state.foregroundApp == app && state.shieldShown ? nil : .noShieldShown(app)
    }

    /// ShieldAction answered a press: `.close` goes home, `.defer` redraws the shield, `.none`
    /// leaves it (a shield lifted meanwhile uncovers the app at the refresh).
    mutating func shieldAction(responded response: ShieldActionResponse) -> [Action] {
        switch response {
        case .close:
            state.foregroundApp = nil
            state.shieldShown = false
            return [.traceAppState, .refresh]
        case .defer:
            state.shieldShown = false
            return [.refresh]
        case .none:
            return [.refresh]
        }
    }

    /// The frontmost app to look up for ``Action/refresh`` (nil when locked or at the home
    /// screen: then only ``Action/countUsage(app:)`` with nil is left to do).
    var appToCheck: String? { state.locked ? nil : state.foregroundApp }

    /// `app` (the ``appToCheck`` the refresh began with) is shielded by `reason` (nil: not
    /// shielded): cover or uncover it.
    mutating func refresh(_ app: String, shieldedBy reason: ShieldReason?) -> [Action] {
        if let reason, !state.shieldShown {
            state.shieldShown = true
            return [.showShield(app: app, reason: reason), .countUsage(app: app)]
        }
        if reason == nil, state.shieldShown {
            state.shieldShown = false
            return [.traceAppState, .countUsage(app: app)]
        }
        return [.countUsage(app: app)]
    }

    /// Whose usage counts when ``Action/countUsage(app:)`` is performed: nobody's under a shield.
    func usage(of app: String?) -> String? {
        state.shieldShown ? nil : app
    }
}
