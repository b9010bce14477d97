import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Routes the tasks simulated code starts itself into its world, and catches what would leave
/// it (docs/runtime.md, "Tasks simulated code starts").
///
/// Installs `swift_task_enqueueGlobal_hook`, `swift_task_enqueueGlobalWithDelay_hook` and
/// `swift_task_enqueueGlobalWithDeadline_hook` once per process (the main actor's hook is
/// ``MainActorOverride``'s). On a thread running a world's loop:
/// - a job for Swift's global executor (a `Task {}` or `Task.detached` that simulated code
///   started, or the nonisolated part of one) becomes a task of that world, run on its thread
///   and interleaved by its strategy like any other (``Scheduler/enqueueStarted(_:)``);
/// - a job enqueued with a delay or a deadline (a clock's sleep) is routed in at once, so that
///   the run stays deterministic, and counted as an escape, which fails the run.
/// Jobs from any other thread go where they were going. A runtime without the hooks is refused
/// (``World`` throws ``WorldError/escapeHooksMissing(_:)``) rather than run without the check.
enum GlobalEnqueueHook {
    private typealias Original = @convention(c) (UnsafeMutableRawPointer) -> Void
    private typealias Hook = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    private typealias DelayOriginal = @convention(c) (UInt64, UnsafeMutableRawPointer) -> Void
    private typealias DelayHook = @convention(c) (UInt64, UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    private typealias DeadlineOriginal = @convention(c) (Int64, Int64, Int64, Int64, Int32, UnsafeMutableRawPointer) -> Void
    private typealias DeadlineHook = @convention(c) (
        Int64, Int64, Int64, Int64, Int32, UnsafeMutableRawPointer, UnsafeRawPointer
    ) -> Void

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The hook symbols this runtime lacks (none: every task started in a world stays in it).
    static let missingSymbols: [String] = {
        guard let handle = dlopen(nil, RTLD_NOW) else {
            return ["swift_task_enqueueGlobal_hook", "swift_task_getMainExecutor_hook",
                "swift_task_enqueueGlobalWithDelay_hook", "swift_task_enqueueGlobalWithDeadline_hook"]
        }
        var missing: [String] = []
        func install<H>(_ name: String, _ hook: H) {
            guard let symbol = dlsym(handle, name) else { return missing.append(name) }
            symbol.assumingMemoryBound(to: Optional<H>.self).pointee = hook
        }
        install("swift_task_enqueueGlobal_hook", { job, original in
            guard let scheduler = GlobalEnqueueHook.currentScheduler else {
                return unsafeBitCast(original, to: Original.self)(job)
            }
            scheduler.enqueueStarted(unsafeBitCast(job, to: UnownedJob.self))
        } as Hook)
        install("swift_task_enqueueGlobalWithDelay_hook", { delay, job, original in
            guard let scheduler = GlobalEnqueueHook.currentScheduler else {
                return unsafeBitCast(original, to: DelayOriginal.self)(delay, job)
            }
            scheduler.enqueueEscaped(unsafeBitCast(job, to: UnownedJob.self))
        } as DelayHook)
        install("swift_task_enqueueGlobalWithDeadline_hook", { sec, nsec, tsec, tnsec, clock, job, original in
            guard let scheduler = GlobalEnqueueHook.currentScheduler else {
                return unsafeBitCast(original, to: DeadlineOriginal.self)(sec, nsec, tsec, tnsec, clock, job)
            }
            scheduler.enqueueEscaped(unsafeBitCast(job, to: UnownedJob.self))
        } as DeadlineHook)
        if !MainActorOverride.set(nil) { missing.append("swift_task_getMainExecutor_hook") }
        return missing
    }()

    /// The scheduler whose run loop owns the calling thread, if any.
    static var currentScheduler: Scheduler? {
        guard let raw = pthread_getspecific(threadKey) else { return nil }
        return Unmanaged<Scheduler>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Marks the calling thread as running `scheduler`'s loop (nil to clear); returns the previous one.
    static func setCurrentScheduler(_ scheduler: Scheduler?) -> Scheduler? {
        _ = missingSymbols
        let previous = currentScheduler
        pthread_setspecific(threadKey, scheduler.map { Unmanaged.passUnretained($0).toOpaque() })
        return previous
    }
}
