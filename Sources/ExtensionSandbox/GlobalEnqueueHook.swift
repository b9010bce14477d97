import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Catches jobs that try to escape a world to Swift's global executor (a bare `Task {}` or
/// `Task.detached` in simulated code: docs/runtime.md, pitfall 4).
///
/// Installs `swift_task_enqueueGlobal_hook` once per process. A job enqueued globally from a
/// thread that is running a world's loop is routed into that world's scheduler (so the run
/// stays deterministic) and counted as an escape, which fails the run; jobs from any other
/// thread go to the global executor as usual.
enum GlobalEnqueueHook {
    private typealias Original = @convention(c) (UnsafeMutableRawPointer) -> Void
    private typealias Hook = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether the hook could be installed (the symbol exists in this runtime).
    static let isInstalled: Bool = {
        guard let handle = dlopen(nil, RTLD_NOW),
            let symbol = dlsym(handle, "swift_task_enqueueGlobal_hook")
        else { return false }
        let hook: Hook = { job, original in
            if let scheduler = GlobalEnqueueHook.currentScheduler {
                scheduler.enqueueEscaped(unsafeBitCast(job, to: UnownedJob.self))
            } else {
                unsafeBitCast(original, to: Original.self)(job)
            }
        }
        symbol.assumingMemoryBound(to: Hook?.self).pointee = hook
        return true
    }()

    /// The scheduler whose run loop owns the calling thread, if any.
    static var currentScheduler: Scheduler? {
        guard let raw = pthread_getspecific(threadKey) else { return nil }
        return Unmanaged<Scheduler>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Marks the calling thread as running `scheduler`'s loop (nil to clear); returns the previous one.
    static func setCurrentScheduler(_ scheduler: Scheduler?) -> Scheduler? {
        _ = isInstalled
        let previous = currentScheduler
        pthread_setspecific(threadKey, scheduler.map { Unmanaged.passUnretained($0).toOpaque() })
        return previous
    }
}
