@_spi(Host) import SimulatediOS

/// The phone's call as `CXCallObserver` reports it, as a state machine (docs/platform.md,
/// "Calls"): `call.dial` → dialing, `call.connect` → connected, `call.end` → ended; an
/// unanswered call ends from dialing. A new call can be dialed once the last one has ended.
/// Pure: each transition returns the state to report (trace `call`, then every call observer),
/// or why it is refused.
struct PhoneCall: Equatable {
    private(set) var call: CallState?

    enum Refusal: Error, Equatable {
        case callInProgress, noDialingCall, noCallInProgress

        var error: DeviceError {
            switch self {
            case .callInProgress: .refused(reason: "callInProgress", message: "a call is already in progress")
            case .noDialingCall:
                .refused(reason: "noDialingCall", message: "call.connect needs a dialing call (call.dial first)")
            case .noCallInProgress: .refused(reason: "noCallInProgress", message: "call.end needs a call in progress")
            }
        }
    }

    init(call: CallState? = nil) {
        self.call = call
    }

    /// An outgoing call to `handle` starts dialing at `now` (seconds).
    mutating func dial(handle: String?, at now: Double) -> Result<CallState, Refusal> {
        if let call, !call.hasEnded { return .failure(.callInProgress) }
        return .success(report(CallState(handle: handle, isOutgoing: true, hasConnected: false, hasEnded: false, since: now)))
    }

    /// The dialing call is answered.
    mutating func connect(at now: Double) -> Result<CallState, Refusal> {
        guard var current = call, !current.hasEnded, !current.hasConnected else { return .failure(.noDialingCall) }
        current.hasConnected = true
        current.since = now
        return .success(report(current))
    }

    /// The call in progress (dialing or connected) ends.
    mutating func end(at now: Double) -> Result<CallState, Refusal> {
        guard var current = call, !current.hasEnded else { return .failure(.noCallInProgress) }
        current.hasEnded = true
        current.since = now
        return .success(report(current))
    }

    private mutating func report(_ state: CallState) -> CallState {
        call = state
        return state
    }
}
