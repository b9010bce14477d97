/// Who is running: the actor (and sandbox, for an extension) a piece of simulated code runs
/// for. Carried in a task-local, so platform APIs know whom to charge and trace without being
/// told; a callback cut by jetsam finds out at its next platform call.
///
/// World-confined (`@unchecked Sendable`).
// unchecked: world-confined: touched only on the world's run loop (checked on entry to it)
public final class CallbackContext: @unchecked Sendable {
    /// The actor's name in traces, e.g. `clarity.monitor`.
    public let actor: String
    /// The sandbox this callback runs in; nil for the main app and the system.
    public let sandbox: (any SandboxAccounting)?
    /// Which launch of the sandbox this callback runs in (the process instance).
    public let generation: Int
    /// Bytes charged to this callback (values decoded from stores), released when it returns.
    public internal(set) var chargedBytes = 0
    /// Whether the callback has returned. Code still running under its context then is a task
    /// the callback started (`Task {}`): it runs only while its launch is inside a callback, as
    /// the extension's timers do (``SandboxAccounting/cutStartedTask(_:at:)``).
    public internal(set) var returned = false

    /// The launch of the main app this code runs in (nil for an extension, whose ``sandbox``
    /// says, and for the system): a task it started dies with it.
    public let launch: (any ProcessLaunch)?

    init(actor: String, sandbox: (any SandboxAccounting)?, generation: Int, launch: (any ProcessLaunch)? = nil) {
        self.actor = actor
        self.sandbox = sandbox
        self.generation = generation
        self.launch = launch
    }

    /// A context for code that runs outside any sandbox (the main app in `launch`, the system).
    public convenience init(unsandboxedActor actor: String, launch: (any ProcessLaunch)? = nil) {
        self.init(actor: actor, sandbox: nil, generation: 0, launch: launch)
    }

    /// The context of the running task, if any.
    @TaskLocal public static var current: CallbackContext?

    /// Every platform call starts here: throws ``Jetsam`` when this callback's sandbox instance
    /// was killed or is over its budget.
    public func checkpoint() throws {
        try sandbox?.checkpoint(self)
    }

    /// The process as decisions name it: the actor, and for an extension which launch of it
    /// (`clarity.monitor#3`).
    public var process: String { sandbox == nil ? actor : "\(actor)#\(generation)" }

    /// A platform call of the running task is about to happen: the calling process must still
    /// be alive (``checkpoint()``, a jetsammed callback is cut here), and this is a scheduling
    /// point — other processes may run first (``Scheduler/yield(before:process:)``).
    /// It is also a fault site for an extension: it may be jetsammed here (``Fault/jetsam``), or
    /// the device may reboot here (``Fault/reboot``).
    ///
    /// A task the callback started (`Task {}`, `Task.detached`) that calls after the callback
    /// returned, while its extension is ended or suspended, is cut here: traced
    /// `task.cancelled`, it gets a `CancellationError`, as the process it belonged to is gone.
    /// So is main-app code whose launch ended (`app.terminate`, a reboot) while it ran.
    public static func platformCall(_ operation: @autoclosure () -> VisibleOperation) throws {
        let scheduler = Scheduler.current
        let own = current
        let context = own ?? scheduler?.startedBy
        if own != nil { scheduler?.forgetRunningTaskStarter() }
        if let context, context.returned, let sandbox = context.sandbox {
            try sandbox.cutStartedTask(context, at: operation())
        }
        try context?.launch?.cutIfEnded(at: operation())
        try context?.checkpoint()
        guard let scheduler else { return }
        if scheduler.isReclaiming { throw WorldError.reclaimed }
        if let context, let sandbox = context.sandbox {
            if scheduler.faults.fires(.jetsam) { try sandbox.injectJetsam(context, at: operation()) }
            if let reboot = scheduler.rebootForFault, scheduler.faults.fires(.reboot) {
                try sandbox.cutForReboot(context, at: operation(), reboot: reboot)
            }
        }
        scheduler.yieldRunningTask(recording: scheduler.recordsChoices ? operation() : nil, process: context?.process)
    }

    /// Charges `bytes` to this callback for the rest of it; throws ``Jetsam`` over budget.
    public func charge(bytes: Int) throws {
        try sandbox?.charge(self, bytes: bytes)
    }

    /// Charges `bytes` the extension keeps between callbacks, for the life of its instance.
    public func retain(bytes: Int) throws {
        try sandbox?.retain(self, bytes: bytes)
    }
}

/// A launch of a process that is no sandboxed extension (the main app): code started in it —
/// its tasks too — runs only while it does.
public protocol ProcessLaunch: AnyObject, Sendable {
    /// Unless the launch still runs, traces `task.cancelled` (reason `terminated`) at
    /// `operation` and throws `CancellationError`.
    func cutIfEnded(at operation: @autoclosure () -> VisibleOperation) throws
}

extension SandboxAccounting {
    /// Why code of launch `generation` cannot run now — `ended` (the launch is gone) or
    /// `suspended` (it is idle between callbacks) — or nil while it is inside a callback. A timer
    /// or a task the extension started runs only then, as on iOS.
    public func whyNotInCallback(generation: Int) -> String? {
        guard !isInCallback(generation: generation) else { return nil }
        return isRunning(generation: generation) ? "suspended" : "ended"
    }
}

/// What a ``CallbackContext`` needs of its sandbox.
public protocol SandboxAccounting: AnyObject, Sendable {
    var name: String { get }
    /// Whether launch `generation` of this sandbox is still running.
    func isRunning(generation: Int) -> Bool
    /// Whether launch `generation` is running and inside a callback now (not idle: iOS
    /// suspends an idle extension, so nothing of it runs until its next callback).
    func isInCallback(generation: Int) -> Bool
    func checkpoint(_ context: CallbackContext) throws
    func charge(_ context: CallbackContext, bytes: Int) throws
    func retain(_ context: CallbackContext, bytes: Int) throws
    /// A task that `context`'s callback started calls at `operation` after the callback returned:
    /// unless launch `generation` is inside a callback again, traces `task.cancelled` (reason
    /// `ended` or `suspended`) and throws `CancellationError`.
    func cutStartedTask(_ context: CallbackContext, at operation: VisibleOperation) throws
    /// Kills the running instance as the fault ``Fault/jetsam`` does, at `operation`; throws ``Jetsam``.
    func injectJetsam(_ context: CallbackContext, at operation: VisibleOperation) throws
    /// Cuts the running callback at `operation` for the fault ``Fault/reboot``: traces it, starts
    /// `reboot` (which ends every extension) and throws, as a process killed by the reboot.
    func cutForReboot(_ context: CallbackContext, at operation: VisibleOperation, reboot: @Sendable () -> Void) throws
}

/// An extension instance was killed for exceeding its memory budget (iOS jetsam).
public struct Jetsam: Error, Equatable, Sendable, CustomStringConvertible {
    public let sandbox: String
    public let usedBytes: Int
    public let budgetBytes: Int

    public var description: String {
        "\(sandbox) extension jetsammed: \(usedBytes) bytes over a budget of \(budgetBytes)"
    }
}
