/// A simulated extension process: launched cold on demand, charged by a memory ledger, killed
/// (jetsam) when over budget, relaunched fresh on the next demand.
///
/// The ledger charges ``baselineBytes`` while an instance exists, plus what the instance keeps
/// between callbacks (``CallbackContext/retain(bytes:)``), plus what each running callback has
/// decoded from stores (``CallbackContext/charge(bytes:)``), released when the callback returns.
/// On jetsam the instance is discarded, every running callback is cut at its next platform call,
/// and what it already wrote to a store stays written, as on iOS.
///
/// World-confined (`@unchecked Sendable`).
// unchecked: world-confined: touched only on the world's run loop (checked on entry to it)
public final class Sandbox<Extension: Sendable>: SandboxAccounting, @unchecked Sendable {
    /// `monitor`, `shieldConfiguration` or `shieldAction`.
    public let name: String
    /// The actor name the extension's effects are traced under, e.g. `clarity.monitor`.
    public let actorName: String
    public var budgetBytes: Int
    public var baselineBytes: Int
    public let lifecycle: Lifecycle

    public private(set) var state: SandboxState = .notRunning
    public private(set) var launches = 0
    public private(set) var jetsams = 0
    public private(set) var peakBytes = 0

    private let factory: @Sendable () -> Extension
    private let onEvent: @Sendable (SandboxEvent) -> Void
    private var instance: Extension?
    private var generation = 0
    private var running: [CallbackContext] = []
    private var retainedBytes = 0

    /// When an instance ends without being killed.
    public enum Lifecycle: Sendable {
        /// Terminated as soon as its callback returns (the DeviceActivityMonitor extension).
        case terminateAfterCallback
        /// Stays in memory, idle, between callbacks (shield extensions).
        case stayResident
    }

    public init(
        name: String, actorName: String, budgetBytes: Int, baselineBytes: Int, lifecycle: Lifecycle,
        factory: @escaping @Sendable () -> Extension, onEvent: @escaping @Sendable (SandboxEvent) -> Void
    ) {
        self.name = name
        self.actorName = actorName
        self.budgetBytes = budgetBytes
        self.baselineBytes = baselineBytes
        self.lifecycle = lifecycle
        self.factory = factory
        self.onEvent = onEvent
    }

    /// Bytes the ledger charges now.
    public var usedBytes: Int {
        guard instance != nil else { return 0 }
        return baselineBytes + retainedBytes + running.reduce(0) { $0 + $1.chargedBytes }
    }

    /// Runs one callback of the extension, launching a fresh instance if none is running.
    /// Throws ``Jetsam`` when the instance was killed during the callback.
    public func run<R: Sendable>(
        callback: String, _ body: @Sendable (Extension) async throws -> R
    ) async throws -> R {
        noteLedger(writes: true)
        let extensionInstance = launchIfNeeded()
        let context = CallbackContext(actor: actorName, sandbox: self, generation: generation)
        running.append(context)
        state = .running
        onEvent(.callback(name: callback))
        do {
            try checkpoint(context)
            // Delivering the callback and its return are scheduling points, as iOS's processes
            // interleave there (docs/runtime.md).
            Scheduler.yield(before: VisibleOperation("deliver", callback), process: context.process)
            let result = try await CallbackContext.$current.withValue(context) { try await body(extensionInstance) }
            try checkpoint(context)
            Scheduler.yield(before: VisibleOperation("return", callback), process: context.process)
            finish(context)
            return result
        } catch {
            finish(context)
            throw error
        }
    }

    public func isRunning(generation: Int) -> Bool {
        noteLedger(writes: false)
        return instance != nil && generation == self.generation
    }

    public func isInCallback(generation: Int) -> Bool {
        noteLedger(writes: false)
        return instance != nil && generation == self.generation && !running.isEmpty
    }

    /// Ends the running instance (e.g. the system reclaiming an idle extension).
    public func terminate() {
        noteLedger(writes: true)
        guard instance != nil else { return }
        discardInstance()
        onEvent(.terminate)
    }

    private func launchIfNeeded() -> Extension {
        if let instance { return instance }
        let fresh = factory()
        instance = fresh
        generation += 1
        launches += 1
        retainedBytes = 0
        notePeak()
        onEvent(.launch(baselineBytes: baselineBytes))
        return fresh
    }

    private func finish(_ context: CallbackContext) {
        noteLedger(writes: true)
        context.returned = true
        running.removeAll { $0 === context }
        guard context.generation == generation, instance != nil else { return }
        if running.isEmpty {
            switch lifecycle {
            case .terminateAfterCallback: terminate()
            case .stayResident: state = .idle
            }
        }
    }

    private func discardInstance() {
        instance = nil
        running.removeAll()
        retainedBytes = 0
        state = .notRunning
    }

    /// The instance, its generation and its ledger are shared by every process that launches,
    /// checks or ends this extension: a touch of them is part of a step's ``Footprint``.
    /// (`checkpoint` may jetsam, so it writes.)
    private func noteLedger(writes: Bool) {
        Scheduler.note(Access("sandbox \(actorName)", writes: writes))
    }

    private func notePeak() {
        peakBytes = max(peakBytes, usedBytes)
    }

    private func jetsam() throws -> Never {
        let error = Jetsam(sandbox: name, usedBytes: usedBytes, budgetBytes: budgetBytes)
        jetsams += 1
        discardInstance()
        onEvent(.jetsam(usedBytes: error.usedBytes, budgetBytes: error.budgetBytes))
        throw error
    }

    public func checkpoint(_ context: CallbackContext) throws {
        noteLedger(writes: true)
        guard instance != nil, context.generation == generation else {
            throw Jetsam(sandbox: name, usedBytes: 0, budgetBytes: budgetBytes)
        }
        if usedBytes > budgetBytes { try jetsam() }
    }

    public func charge(_ context: CallbackContext, bytes: Int) throws {
        try checkpoint(context)
        context.chargedBytes += bytes
        notePeak()
        if usedBytes > budgetBytes { try jetsam() }
    }

    public func cutStartedTask(_ context: CallbackContext, at operation: VisibleOperation) throws {
        guard let reason = whyNotInCallback(generation: context.generation) else { return }
        onEvent(.taskCancelled(reason: reason, at: operation.description))
        throw CancellationError()
    }

    public func injectJetsam(_ context: CallbackContext, at operation: VisibleOperation) throws {
        try checkpoint(context)
        onEvent(.fault(.jetsam, at: operation.description))
        try jetsam()
    }

    public func cutForReboot(_ context: CallbackContext, at operation: VisibleOperation, reboot: @Sendable () -> Void) throws {
        try checkpoint(context)
        onEvent(.fault(.reboot, at: operation.description))
        reboot()
        throw Jetsam(sandbox: name, usedBytes: usedBytes, budgetBytes: budgetBytes)
    }

    public func retain(_ context: CallbackContext, bytes: Int) throws {
        try checkpoint(context)
        retainedBytes += bytes
        notePeak()
        if usedBytes > budgetBytes { try jetsam() }
    }
}

/// The life state of a sandbox, as `sandbox.list` reports it.
public enum SandboxState: String, Sendable, Codable {
    case notRunning
    case running
    case idle
}

/// What a sandbox reports to the trace.
public enum SandboxEvent: Sendable, Equatable {
    case launch(baselineBytes: Int)
    case callback(name: String)
    case jetsam(usedBytes: Int, budgetBytes: Int)
    case terminate
    /// A fault was injected (``FaultPlan``), at the operation named.
    case fault(Fault, at: String)
    /// A task a callback started went on after the callback returned, while its launch was
    /// `ended` or `suspended` (the reason), and was cut at the operation named.
    case taskCancelled(reason: String, at: String)
}
