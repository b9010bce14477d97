import Testing

@testable import DeviceActors
@_spi(Host) import SimulatediOS

/// The shield flow's state machine, exhaustively: every input's state change and actions.
@Suite struct ShieldFlowTests {
    private let clarity = "com.clarity.focus"

    /// A flow with `app` frontmost, its shield showing or not.
    private func flow(frontmost app: String?, shieldShown: Bool = false, locked: Bool = false) -> ShieldFlow {
        var flow = ShieldFlow(locked: locked, foregroundApp: app)
        if shieldShown, let app { _ = flow.refresh(app, shieldedBy: .application) }
        return flow
    }

    @Test func lockAndUnlockTraceTheStateTellDeviceActivityAndRecheck() {
        var flow = flow(frontmost: instagram)
        #expect(flow.lock() == [.traceAppState, .setInUse(false), .refresh])
        #expect(flow == ShieldFlow(locked: true, foregroundApp: instagram))
        #expect(flow.appToCheck == nil)
        #expect(flow.unlock() == [.traceAppState, .setUnlockedSinceBoot(true), .setInUse(true), .refresh])
        #expect(flow == ShieldFlow(locked: false, foregroundApp: instagram))
        #expect(flow.appToCheck == instagram)
    }

    @Test func rebootLocksGoesHomeAndEndsTheExtensions() {
        var flow = flow(frontmost: instagram, shieldShown: true)
        #expect(flow.reboot() == [.reboot, .traceAppState, .setUnlockedSinceBoot(false), .setInUse(false), .refresh])
        #expect(flow == ShieldFlow(locked: true, foregroundApp: nil))
        #expect(!flow.shieldShown)
    }

    @Test func openingAnAppBringsItUncoveredToTheFrontAndTheMainAppBecomesActive() {
        var flow = ShieldFlow()
        #expect(flow.open(instagram, mainApp: clarity) == .success([.traceAppState, .refresh]))
        #expect(flow == ShieldFlow(foregroundApp: instagram))
        #expect(flow.open(clarity, mainApp: clarity) == .success([.traceAppState, .becomeActive, .refresh]))
        #expect(flow == ShieldFlow(foregroundApp: clarity))
    }

    @Test func openingOnALockedDeviceIsRefusedAndChangesNothing() {
        var flow = ShieldFlow(locked: true)
        #expect(flow.open(instagram, mainApp: clarity) == .failure(.deviceLocked))
        #expect(flow == ShieldFlow(locked: true))
        #expect(
            ShieldFlow.Refusal.deviceLocked.error
                == .refused(reason: "deviceLocked", message: "unlock the device before opening an app"))
    }

    @Test func onlyTheFrontmostAppCloses() {
        var flow = flow(frontmost: instagram, shieldShown: true)
        #expect(flow.close("com.zhiliaoapp.musically") == .failure(.notForeground("com.zhiliaoapp.musically")))
        #expect(flow.shieldShown)
        #expect(flow.close(instagram) == .success([.traceAppState, .refresh]))
        #expect(flow == ShieldFlow())
    }

    @Test func aShieldedFrontmostAppIsCoveredOnceAndItsUsageStops() {
        var flow = flow(frontmost: instagram)
        #expect(flow.refresh(instagram, shieldedBy: .category("social")) == [
            .showShield(app: instagram, reason: .category("social")), .countUsage(app: instagram),
        ])
        #expect(flow.shieldShown)
        #expect(flow.usage(of: instagram) == nil)
        #expect(flow.refresh(instagram, shieldedBy: .application) == [.countUsage(app: instagram)])
        #expect(flow.shieldShown)
    }

    @Test func aLiftedShieldUncoversTheAppAndItsUsageCountsAgain() {
        var flow = flow(frontmost: instagram, shieldShown: true)
        #expect(flow.refresh(instagram, shieldedBy: nil) == [.traceAppState, .countUsage(app: instagram)])
        #expect(!flow.shieldShown)
        #expect(flow.usage(of: instagram) == instagram)
        #expect(flow.refresh(instagram, shieldedBy: nil) == [.countUsage(app: instagram)])
    }

    @Test func buttonsCanBePressedOnlyOnAShieldShowing() {
        #expect(flow(frontmost: instagram).canPress(on: instagram) == .noShieldShown(instagram))
        #expect(flow(frontmost: instagram, shieldShown: true).canPress(on: "com.zhiliaoapp.musically")
            == .noShieldShown("com.zhiliaoapp.musically"))
        #expect(flow(frontmost: instagram, shieldShown: true).canPress(on: instagram) == nil)
        #expect(
            ShieldFlow.Refusal.noShieldShown(instagram).error
                == .refused(reason: "noShieldShown", message: "no shield is showing for \(instagram)"))
    }

    @Test func closeGoesHomeDeferRedrawsNoneLeavesTheShield() {
        var closing = flow(frontmost: instagram, shieldShown: true)
        #expect(closing.shieldAction(responded: .close) == [.traceAppState, .refresh])
        #expect(closing == ShieldFlow())

        var deferring = flow(frontmost: instagram, shieldShown: true)
        #expect(deferring.shieldAction(responded: .defer) == [.refresh])
        #expect(deferring == ShieldFlow(foregroundApp: instagram))
        #expect(deferring.refresh(instagram, shieldedBy: .application).first == .showShield(app: instagram, reason: .application))

        var staying = flow(frontmost: instagram, shieldShown: true)
        #expect(staying.shieldAction(responded: .none) == [.refresh])
        #expect(staying == flow(frontmost: instagram, shieldShown: true))
    }
}

/// The call's state machine, exhaustively.
@Suite struct PhoneCallTests {
    @Test func dialConnectEndReportEachTransitionAtItsTime() {
        var phone = PhoneCall()
        let dialing = CallState(handle: "+1", isOutgoing: true, hasConnected: false, hasEnded: false, since: 10)
        #expect(phone.dial(handle: "+1", at: 10) == .success(dialing))
        #expect(phone.call == dialing)
        let connected = CallState(handle: "+1", isOutgoing: true, hasConnected: true, hasEnded: false, since: 20)
        #expect(phone.connect(at: 20) == .success(connected))
        #expect(phone.call == connected)
        let ended = CallState(handle: "+1", isOutgoing: true, hasConnected: true, hasEnded: true, since: 95)
        #expect(phone.end(at: 95) == .success(ended))
        #expect(phone.call == ended)
    }

    @Test func anUnansweredCallEndsFromDialing() {
        var phone = PhoneCall()
        _ = phone.dial(handle: nil, at: 0)
        #expect(phone.end(at: 30) == .success(CallState(handle: nil, isOutgoing: true, hasConnected: false, hasEnded: true, since: 30)))
        #expect(phone.connect(at: 31) == .failure(.noDialingCall))
    }

    @Test func outOfOrderTransitionsAreRefusedAndChangeNothing() {
        var phone = PhoneCall()
        #expect(phone.connect(at: 1) == .failure(.noDialingCall))
        #expect(phone.end(at: 1) == .failure(.noCallInProgress))
        #expect(phone.call == nil)
        _ = phone.dial(handle: "+1", at: 2)
        let dialing = phone.call
        #expect(phone.dial(handle: "+2", at: 3) == .failure(.callInProgress))
        _ = phone.connect(at: 4)
        #expect(phone.connect(at: 5) == .failure(.noDialingCall))
        #expect(phone.call?.since == 4)
        _ = phone.end(at: 6)
        #expect(phone.end(at: 7) == .failure(.noCallInProgress))
        #expect(phone.dial(handle: "+2", at: 8).map(\.handle) == .success("+2"))
        #expect(dialing?.since == 2)
        #expect(PhoneCall.Refusal.callInProgress.error == .refused(reason: "callInProgress", message: "a call is already in progress"))
    }
}
