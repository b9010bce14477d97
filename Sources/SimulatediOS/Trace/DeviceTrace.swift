import ExtensionSandbox

/// The device's trace: records each effect with the current virtual time and the running
/// actor and sandbox (from ``CallbackContext/current``). World-confined.
///
/// It keeps the newest 100 000 effects, or fewer when they hold more than ``byteCapacity``
/// (``Effect/heldBytes``): older ones are dropped, and `trace.get` says where the kept ones
/// start.
// unchecked: world-confined: `waiters` is touched only on the world's run loop (checked on entry to it)
public final class DeviceTrace: @unchecked Sendable {
    @_spi(Host) public let recorder: TraceRecorder<Effect>
    @_spi(Host) public let clock: VirtualClock
    /// World tasks waiting for the next effect (``nextEffect(after:orUntil:)``).
    private var waiters: [EffectWaiter] = []
    /// The sequence of the last effect that wakes waiters (every effect but a quiet one,
    /// ``recordQuietly(_:)``).
    private var lastWakingSequence: Int

    /// The most bytes a device's trace holds (estimated): 24 MiB, room for about 90 000 effects
    /// (each takes 272 bytes in the trace on x86_64, ``TraceRecorder/entryOverhead``, plus what
    /// it holds), fewer when they hold large values.
    public static let byteCapacity = 24 * 1024 * 1024

    @_spi(Host) public init(
        clock: VirtualClock, capacity: Int = 100_000, byteCapacity: Int = DeviceTrace.byteCapacity, lastSequence: Int = 0
    ) {
        self.clock = clock
        self.lastWakingSequence = lastSequence
        self.recorder = TraceRecorder(
            capacity: capacity, byteCapacity: byteCapacity, lastSequence: lastSequence, cost: { $0.heldBytes })
    }

    /// Records `effect` under the running context (the app or extension whose platform call
    /// caused it), or under `system` when none is running; returns its sequence number.
    @discardableResult
    @_spi(Host) public func record(_ effect: Effect) -> Int {
        recordInContext(effect, wakes: true)
    }

    /// Records `effect` as ``record(_:)`` does, without waking a task waiting for the next
    /// effect: an entry that exists only to explain a run (a main-app read traced because the
    /// device traces every read) must not make a `waitUntil` look again, which would add
    /// scheduling decisions (config/scheduling-points.json).
    @_spi(Host) public func recordQuietly(_ effect: Effect) -> Int {
        recordInContext(effect, wakes: false)
    }

    private func recordInContext(_ effect: Effect, wakes: Bool) -> Int {
        let context = CallbackContext.current
        return append(
            time: clock.now, actor: context?.actor ?? "system", sandbox: context?.sandbox?.name, payload: effect, wakes: wakes)
    }

    /// Records an effect of the platform itself (`springBoard`, `deviceActivity`), whoever is running.
    @_spi(Host) public func record(_ effect: Effect, by actor: String) {
        append(time: clock.now, actor: actor, sandbox: nil, payload: effect)
    }

    /// Records what `callback` threw as `app.error`, under the running context (the process that
    /// threw) or the given one. A ``Jetsam`` is left out (its sandbox traced it), and so is an
    /// app's missing ShieldConfiguration extension (the system shield shows instead).
    @_spi(Host) public func recordError(_ error: any Error, in callback: String, actor: String? = nil, sandbox: String? = nil) {
        guard !(error is Jetsam), !(error is NoShieldConfigurationExtension) else { return }
        let effect = Effect.appError(callback: callback, message: "\(error)")
        if let actor {
            append(time: clock.now, actor: actor, sandbox: sandbox, payload: effect)
        } else {
            record(effect)
        }
    }

    /// Records a sandbox's own event under that sandbox.
    @_spi(Host) public func record(_ event: SandboxEvent, actor: String, sandbox: String) {
        append(time: clock.now, actor: actor, sandbox: sandbox, payload: Effect(event))
    }

    /// Suspends the calling world task until the device records an effect after `sequence`
    /// (true; at once if one already was) or the clock reaches `deadline` (false), whichever comes
    /// first: how a scenario's `waitUntil` looks again only when something happened — including
    /// while it was looking, since evaluating a condition may await, and other tasks run then.
    @_spi(Host) public func nextEffect(after sequence: Int, orUntil deadline: VirtualInstant) async -> Bool {
        guard lastWakingSequence <= sequence else { return true }
        let clock = clock
        return await withCheckedContinuation { continuation in
            let waiter = EffectWaiter(continuation)
            waiter.timer = clock.schedule(at: deadline, label: "waitUntil") { waiter.resume(returning: false) }
            waiters.append(waiter)
        }
    }

    /// Appends an effect; unless told not to (`wakes`), it is the last that wakes waiters, and
    /// wakes those waiting now.
    @discardableResult
    private func append(time: VirtualInstant, actor: String, sandbox: String?, payload: Effect, wakes: Bool = true) -> Int {
        let sequence = recorder.record(time: time, actor: actor, sandbox: sandbox, payload: payload).sequence
        guard wakes else { return sequence }
        lastWakingSequence = sequence
        if !waiters.isEmpty {
            let woken = waiters
            waiters.removeAll()
            for waiter in woken {
                if let timer = waiter.timer { clock.cancel(timer) }
                waiter.resume(returning: true)
            }
        }
        return sequence
    }
}

/// A world task waiting in ``DeviceTrace/nextEffect(after:orUntil:)``: resumed once, by the next
/// effect or by its deadline. World-confined.
// unchecked: world-confined: resumed and cancelled only on the world's run loop (checked on entry to it)
private final class EffectWaiter: @unchecked Sendable {
    private var continuation: CheckedContinuation<Bool, Never>?
    var timer: VirtualClock.TimerID?

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = continuation
    }

    func resume(returning recorded: Bool) {
        continuation?.resume(returning: recorded)
        continuation = nil
    }
}
