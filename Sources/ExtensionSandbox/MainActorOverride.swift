import CMainExecutorHook

/// `@MainActor` inside a world: while a world's loop runs on a thread, the Swift runtime's main
/// executor, on that thread only, is the world's own main actor (a ``WorldActorExecutor``), so
/// `Task { @MainActor in … }` and `await MainActor.run { … }` in simulated code run in the world,
/// one job at a time, interleaved by its strategy, and never on the process's main thread
/// (docs/runtime.md, "Tasks simulated code starts"). Swift 6.3 sends main-actor jobs to its
/// main executor directly (its enqueue hook is not consulted), but asks
/// `swift_task_getMainExecutor_hook` which executor is the main one; the hook, in C since it
/// returns a C struct, answers per thread.
enum MainActorOverride {
    /// Makes `executor` the calling thread's main executor (nil: the process's own again).
    /// Returns false when the runtime lacks the hook.
    @discardableResult
    static func set(_ executor: WorldActorExecutor?) -> Bool {
        guard let executor else { return clarity_override_main_executor(0, 0) != 0 }
        let words = unsafeBitCast(executor.asUnownedSerialExecutor(), to: (UInt, UInt).self)
        return clarity_override_main_executor(words.0, words.1) != 0
    }
}
