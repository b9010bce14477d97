import Testing

@testable import DeviceActors
@_spi(Host) import SimulatediOS

/// The call's state machine, exhaustively: each transition's state to report, and each refusal
/// changing nothing.
@Suite struct PhoneCallTests {
    private func phone(_ call: CallState? = nil) -> StateMachineTester<PhoneCall, CallState?> {
        StateMachineTester(PhoneCall(call: call), state: \.call)
    }

    private func call(_ handle: String?, connected: Bool, ended: Bool, since: Double) -> CallState {
        CallState(handle: handle, isOutgoing: true, hasConnected: connected, hasEnded: ended, since: since)
    }

    @Test func dialConnectEndReportEachTransitionAtItsTime() {
        var phone = phone()
        let dialing = call("+1", connected: false, ended: false, since: 10)
        phone.send({ $0.dial(handle: "+1", at: 10) }, returns: .success(dialing)) { $0 = dialing }
        let connected = call("+1", connected: true, ended: false, since: 20)
        phone.send({ $0.connect(at: 20) }, returns: .success(connected)) { $0 = connected }
        let ended = call("+1", connected: true, ended: true, since: 95)
        phone.send({ $0.end(at: 95) }, returns: .success(ended)) { $0 = ended }
    }

    @Test func anUnansweredCallEndsFromDialing() {
        var phone = phone(call(nil, connected: false, ended: false, since: 0))
        let unanswered = call(nil, connected: false, ended: true, since: 30)
        phone.send({ $0.end(at: 30) }, returns: .success(unanswered)) { $0 = unanswered }
        phone.send({ $0.connect(at: 31) }, returns: .failure(.noDialingCall))
    }

    @Test func withoutACallOnlyDialingIsAccepted() {
        var phone = phone()
        phone.send({ $0.connect(at: 1) }, returns: .failure(.noDialingCall))
        phone.send({ $0.end(at: 1) }, returns: .failure(.noCallInProgress))
    }

    @Test func aCallInProgressRefusesAnotherDial() {
        var dialing = phone(call("+1", connected: false, ended: false, since: 2))
        dialing.send({ $0.dial(handle: "+2", at: 3) }, returns: .failure(.callInProgress))
        var connected = phone(call("+1", connected: true, ended: false, since: 4))
        connected.send({ $0.dial(handle: "+2", at: 5) }, returns: .failure(.callInProgress))
        connected.send({ $0.connect(at: 5) }, returns: .failure(.noDialingCall))
    }

    @Test func anEndedCallIsReplacedByTheNextDial() {
        var phone = phone(call("+1", connected: true, ended: true, since: 6))
        phone.send({ $0.end(at: 7) }, returns: .failure(.noCallInProgress))
        phone.send({ $0.connect(at: 7) }, returns: .failure(.noDialingCall))
        let redial = call("+2", connected: false, ended: false, since: 8)
        phone.send({ $0.dial(handle: "+2", at: 8) }, returns: .success(redial)) { $0 = redial }
    }

    @Test func refusalsAreTheDeviceErrorsOfCallEvents() {
        #expect(
            PhoneCall.Refusal.callInProgress.error == .refused(reason: "callInProgress", message: "a call is already in progress"))
        #expect(
            PhoneCall.Refusal.noDialingCall.error
                == .refused(reason: "noDialingCall", message: "call.connect needs a dialing call (call.dial first)"))
        #expect(
            PhoneCall.Refusal.noCallInProgress.error
                == .refused(reason: "noCallInProgress", message: "call.end needs a call in progress"))
    }
}
