import Testing

@testable import DeviceActors
@_spi(Host) import SimulatediOS

/// The shield flow's state machine, exhaustively: every input's state change and actions.
@Suite struct ShieldFlowTests {
    private let clarity = "com.clarity.focus"
    private let tiktok = "com.zhiliaoapp.musically"
    private let shield = ShieldConfiguration.systemDefault(appName: "Instagram")

    /// A flow with `app` frontmost, its shield showing or not.
    private func flow(frontmost app: String? = nil, shieldShown: Bool = false, locked: Bool = false)
        -> StateMachineTester<ShieldFlow, ShieldFlow.State>
    {
        var flow = ShieldFlow(locked: locked, foregroundApp: app)
        if shieldShown, let app {
            var unlocked = ShieldFlow(foregroundApp: app)
            _ = unlocked.refresh(app, shieldedBy: .application)
            _ = unlocked.shieldDrawn(app, configuration: shield, source: .extension)
            if locked { _ = unlocked.lock() }
            flow = unlocked
        }
        #expect(flow.state == ShieldFlow.State(locked: locked, foregroundApp: app, shield: shieldShown ? .shown : .none))
        return StateMachineTester(flow, state: \.state)
    }

    @Test func lockAndUnlockTraceTheStateTellDeviceActivityAndRecheck() {
        var flow = flow(frontmost: instagram)
        flow.send({ $0.lock() }, returns: [.traceAppState, .setInUse(false), .refresh]) { $0.locked = true }
        #expect(flow.machine.appToCheck == nil)
        flow.send({ $0.unlock() }, returns: [.traceAppState, .setUnlockedSinceBoot(true), .setInUse(true), .refresh]) {
            $0.locked = false
        }
        #expect(flow.machine.appToCheck == instagram)
    }

    /// The lock screen hides the app, not its shield: the shield still counts as shown.
    @Test func lockingLeavesTheShieldAsItIs() {
        var flow = flow(frontmost: instagram, shieldShown: true)
        flow.send({ $0.lock() }, returns: [.traceAppState, .setInUse(false), .refresh]) { $0.locked = true }
        #expect(flow.machine.usage(of: instagram) == nil)
    }

    @Test func rebootLocksGoesHomeAndEndsTheExtensions() {
        var flow = flow(frontmost: instagram, shieldShown: true)
        flow.send({ $0.reboot() }, returns: [.reboot, .traceAppState, .setUnlockedSinceBoot(false), .setInUse(false), .refresh]) {
            $0 = ShieldFlow.State(locked: true, foregroundApp: nil, shield: .none)
        }
        #expect(flow.machine.appToCheck == nil)
    }

    @Test func openingAnAppBringsItUncoveredToTheFrontAndTheMainAppBecomesActive() {
        var flow = flow()
        flow.send({ $0.open(instagram, mainApps: [clarity]) }, returns: .success([.traceAppState, .refresh])) {
            $0.foregroundApp = instagram
        }
        flow.send({ $0.open(clarity, mainApps: [clarity]) }, returns: .success([.traceAppState, .becomeActive, .refresh])) {
            $0.foregroundApp = clarity
        }
    }

    /// A URL (`sms:`) brings its app to the front the way opening it does; SpringBoard checks
    /// the lock itself.
    @Test func anAppBroughtToTheFrontOverAShieldIsUncoveredUntilTheRefresh() {
        var flow = flow(frontmost: instagram, shieldShown: true)
        flow.send({ $0.bringToFront(tiktok, mainApps: [clarity]) }, returns: [.traceAppState, .refresh]) {
            $0.foregroundApp = tiktok
            $0.shield = .none
        }
        #expect(flow.machine.appToCheck == tiktok)
    }

    @Test func openingOnALockedDeviceIsRefusedAndChangesNothing() {
        var flow = flow(frontmost: instagram, locked: true)
        flow.send({ $0.open(tiktok, mainApps: [clarity]) }, returns: .failure(.deviceLocked))
        #expect(
            ShieldFlow.Refusal.deviceLocked.error
                == .refused(reason: "deviceLocked", message: "unlock the device before opening an app"))
    }

    @Test func onlyTheFrontmostAppCloses() {
        var flow = flow(frontmost: instagram, shieldShown: true)
        flow.send({ $0.close(tiktok) }, returns: .failure(.notForeground(tiktok)))
        flow.send({ $0.close(instagram) }, returns: .success([.traceAppState, .refresh])) {
            $0.foregroundApp = nil
            $0.shield = .none
        }
        flow.send({ $0.close(instagram) }, returns: .failure(.notForeground(instagram)))
        #expect(
            ShieldFlow.Refusal.notForeground(tiktok).error
                == .refused(reason: "notForeground", message: "\(tiktok) is not the frontmost app"))
    }

    @Test func aShieldedFrontmostAppIsCoveredOnceAndItsUsageStops() {
        var flow = flow(frontmost: instagram)
        #expect(flow.machine.usage(of: instagram) == instagram)
        flow.send(
            { $0.refresh(instagram, shieldedBy: .category("social")) },
            returns: [.showShield(app: instagram, reason: .category("social")), .countUsage(app: instagram)]
        ) { $0.shield = .drawing }
        #expect(flow.machine.usage(of: instagram) == nil)
        #expect(flow.machine.canPress(on: instagram) == .noShieldShown(instagram), "not before it is drawn")
        flow.send({ $0.refresh(instagram, shieldedBy: .application) }, returns: [.countUsage(app: instagram)])
        flow.send(
            { $0.shieldDrawn(instagram, configuration: shield, source: .systemDefault) },
            returns: [.traceShieldShown(app: instagram, configuration: shield, source: .systemDefault), .traceAppState]
        ) { $0.shield = .shown }
        #expect(flow.machine.canPress(on: instagram) == nil)
        flow.send({ $0.refresh(instagram, shieldedBy: .application) }, returns: [.countUsage(app: instagram)])
    }

    /// The app closed while ShieldConfiguration was drawing its shield: the drawing is dropped,
    /// no `shield.shown` over the home screen, and the stale refresh counts nobody's usage.
    @Test func aShieldDrawnAfterItsAppClosedIsNotShown() {
        var flow = flow(frontmost: instagram)
        flow.send(
            { $0.refresh(instagram, shieldedBy: .application) },
            returns: [.showShield(app: instagram, reason: .application), .countUsage(app: instagram)]
        ) { $0.shield = .drawing }
        flow.send({ $0.close(instagram) }, returns: .success([.traceAppState, .refresh])) {
            $0.foregroundApp = nil
            $0.shield = .none
        }
        flow.send({ $0.shieldDrawn(instagram, configuration: shield, source: .extension) }, returns: [])
        #expect(flow.machine.usage(of: instagram) == nil)
        flow.send({ $0.open(instagram, mainApps: [clarity]) }, returns: .success([.traceAppState, .refresh])) {
            $0.foregroundApp = instagram
        }
        flow.send({ $0.shieldDrawn(instagram, configuration: shield, source: .extension) }, returns: [])
    }

    /// A refresh that looked up the shields for an app that has since left the front, or before
    /// the lock, changes nothing.
    @Test func aStaleRefreshChangesNothing() {
        var flow = flow(frontmost: tiktok)
        flow.send({ $0.refresh(instagram, shieldedBy: .application) }, returns: [])
        flow.send({ $0.lock() }, returns: [.traceAppState, .setInUse(false), .refresh]) { $0.locked = true }
        flow.send({ $0.refresh(tiktok, shieldedBy: .application) }, returns: [])
    }

    /// A shield lifted while it is being drawn: uncovered at once, and the drawing is dropped.
    @Test func aShieldLiftedWhileDrawnIsNotShown() {
        var flow = flow(frontmost: instagram)
        flow.send(
            { $0.refresh(instagram, shieldedBy: .application) },
            returns: [.showShield(app: instagram, reason: .application), .countUsage(app: instagram)]
        ) { $0.shield = .drawing }
        flow.send({ $0.refresh(instagram, shieldedBy: nil) }, returns: [.traceAppState, .countUsage(app: instagram)]) {
            $0.shield = .none
        }
        flow.send({ $0.shieldDrawn(instagram, configuration: shield, source: .extension) }, returns: [])
        #expect(flow.machine.usage(of: instagram) == instagram)
    }

    @Test func aLiftedShieldUncoversTheAppAndItsUsageCountsAgain() {
        var flow = flow(frontmost: instagram, shieldShown: true)
        flow.send({ $0.refresh(instagram, shieldedBy: nil) }, returns: [.traceAppState, .countUsage(app: instagram)]) {
            $0.shield = .none
        }
        #expect(flow.machine.usage(of: instagram) == instagram)
        flow.send({ $0.refresh(instagram, shieldedBy: nil) }, returns: [.countUsage(app: instagram)])
    }

    @Test func buttonsCanBePressedOnlyOnAShieldShowing() {
        #expect(flow(frontmost: instagram).machine.canPress(on: instagram) == .noShieldShown(instagram))
        #expect(flow(frontmost: instagram, shieldShown: true).machine.canPress(on: tiktok) == .noShieldShown(tiktok))
        #expect(flow(frontmost: instagram, shieldShown: true).machine.canPress(on: instagram) == nil)
        #expect(
            ShieldFlow.Refusal.noShieldShown(instagram).error
                == .refused(reason: "noShieldShown", message: "no shield is showing for \(instagram)"))
    }

    @Test func closeGoesHome() {
        var flow = flow(frontmost: instagram, shieldShown: true)
        flow.send({ $0.shieldAction(responded: .close) }, returns: [.traceAppState, .refresh]) {
            $0.foregroundApp = nil
            $0.shield = .none
        }
    }

    /// `.defer` takes the shield down so that the refresh draws it again.
    @Test func deferRedrawsTheShield() {
        var flow = flow(frontmost: instagram, shieldShown: true)
        flow.send({ $0.shieldAction(responded: .defer) }, returns: [.refresh]) { $0.shield = .none }
        flow.send(
            { $0.refresh(instagram, shieldedBy: .application) },
            returns: [.showShield(app: instagram, reason: .application), .countUsage(app: instagram)]
        ) { $0.shield = .drawing }
    }

    @Test func noneLeavesTheShield() {
        var flow = flow(frontmost: instagram, shieldShown: true)
        flow.send({ $0.shieldAction(responded: .none) }, returns: [.refresh])
    }
}
