@_spi(Host) import SimulatediOS

/// The shield flow as a state machine (docs/platform.md, "Shield flow"): the lock, the frontmost
/// app and whether its shield shows. Pure: each input returns the ``Action``s SpringBoard then
/// performs, in order (asking the extensions, tracing, telling DeviceActivity whose usage counts).
///
/// An app that is frontmost while a store shields it is covered by its shield; usage counts only
/// for an uncovered frontmost app on an unlocked device.
///
/// A shield is drawn before it shows: the system asks ShieldConfiguration for its texts, and only
/// then can the user see it and press its buttons. Whatever happened meanwhile wins over the
/// drawing: an app closed, another brought to the front, the shield lifted or redrawn — the
/// drawing is then dropped, so no `shield.shown` is ever traced over an app that is gone (an
/// await in SpringBoard must not make a race the explorer would blame on the app).
struct ShieldFlow: Equatable {
    /// The frontmost app's shield.
    enum Shield: Equatable {
        case none
        /// Covered; ShieldConfiguration is being asked for the texts (``Action/showShield(app:reason:)``).
        case drawing
        /// The user sees it and can press its buttons.
        case shown
    }

    /// What the flow remembers between inputs: what `app.state` traces.
    struct State: Equatable {
        var locked = false
        var foregroundApp: String?
        var shield = Shield.none

        /// What `app.state` and `device.state` call `shieldShown`.
        var shieldShown: Bool { shield == .shown }
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
        /// Ask ShieldConfiguration for the app's shield (as shielded by `reason`), then answer
        /// ``ShieldFlow/shieldDrawn(_:)``.
        case showShield(app: String, reason: ShieldReason)
        /// Trace `shield.shown`: the shield drawn over `app`, with the texts it was drawn with.
        case traceShieldShown(app: String, configuration: ShieldConfiguration, source: ShieldConfigurationSource)
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
        state.shield = .none
        return [.reboot, .traceAppState, .setUnlockedSinceBoot(false), .setInUse(false), .refresh]
    }

    /// `app.open` (or a URL bringing `app` to the front): refused on a locked device.
    mutating func open(_ app: String, mainApps: Set<String>) -> Result<[Action], Refusal> {
        guard !state.locked else { return .failure(.deviceLocked) }
        return .success(bringToFront(app, mainApps: mainApps))
    }

    /// Makes `app` frontmost, uncovered until the refresh looks at the shields; an installed
    /// app's main app (one of `mainApps`) becomes active.
    mutating func bringToFront(_ app: String, mainApps: Set<String>) -> [Action] {
        state.foregroundApp = app
        state.shield = .none
        return [.traceAppState] + (mainApps.contains(app) ? [.becomeActive] : []) + [.refresh]
    }

    /// `app.close`: back to the home screen; only the frontmost app can be closed.
    mutating func close(_ app: String) -> Result<[Action], Refusal> {
        guard state.foregroundApp == app else { return .failure(.notForeground(app)) }
        state.foregroundApp = nil
        state.shield = .none
        return .success([.traceAppState, .refresh])
    }

    /// Whether a shield button can be pressed on `app`: only on its shield, shown (not while
    /// it is being drawn).
    func canPress(on app: String) -> Refusal? {
        state.foregroundApp == app && state.shield == .shown ? nil : .noShieldShown(app)
    }

    /// ShieldAction answered a press: `.close` goes home, `.defer` redraws the shield, `.none`
    /// leaves it (a shield lifted meanwhile uncovers the app at the refresh).
    mutating func shieldAction(responded response: ShieldActionResponse) -> [Action] {
        switch response {
        case .close:
            state.foregroundApp = nil
            state.shield = .none
            return [.traceAppState, .refresh]
        case .defer:
            state.shield = .none
            return [.refresh]
        case .none:
            return [.refresh]
        }
    }

    /// The frontmost app to look up for ``Action/refresh`` (nil when locked or at the home
    /// screen: then only ``Action/countUsage(app:)`` with nil is left to do).
    var appToCheck: String? { state.locked ? nil : state.foregroundApp }

    /// `app` (the ``appToCheck`` the refresh began with) is shielded by `reason` (nil: not
    /// shielded): cover or uncover it. A refresh that began before the lock or another app came
    /// to the front changes nothing (the input that changed them refreshes again).
    mutating func refresh(_ app: String, shieldedBy reason: ShieldReason?) -> [Action] {
        guard appToCheck == app else { return [] }
        if let reason, state.shield == .none {
            state.shield = .drawing
            return [.showShield(app: app, reason: reason), .countUsage(app: app)]
        }
        if reason == nil, state.shield != .none {
            state.shield = .none
            return [.traceAppState, .countUsage(app: app)]
        }
        return [.countUsage(app: app)]
    }

    /// ShieldConfiguration answered for `app`'s shield (or the system default stands in): it
    /// shows, unless the drawing no longer stands (the app left the front, the shield was lifted
    /// or redrawn, the device locked).
    mutating func shieldDrawn(
        _ app: String, configuration: ShieldConfiguration, source: ShieldConfigurationSource
    ) -> [Action] {
        guard appToCheck == app, state.shield == .drawing else { return [] }
        state.shield = .shown
        return [.traceShieldShown(app: app, configuration: configuration, source: source), .traceAppState]
    }

    /// Whose usage counts when ``Action/countUsage(app:)`` is performed: `app`'s only while it is
    /// frontmost and uncovered on an unlocked device (a count asked for by a refresh that began
    /// before `app` left the front counts nobody's).
    func usage(of app: String?) -> String? {
        guard let app, appToCheck == app, state.shield == .none else { return nil }
        return app
    }
}
