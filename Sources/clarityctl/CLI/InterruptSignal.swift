import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT) taken over while a long call runs (`explore`), instead of ending clarityctl:
/// the first runs `first` on a queue of its own — the command asks the daemon to stop the work,
/// which then answers with what it did, and the command goes on to report it —; a second ends
/// clarityctl at once, status 130, without the report. Before and after
/// ``whileTaken(first:_:)``, SIGINT does what it did (ends clarityctl, unless whoever started
/// clarityctl had it ignored — a background job of a script —: then it stays ignored throughout).
///
/// The signal is ignored, then given a dispatch source (on Linux, Dispatch puts a handler of its
/// own in place as it registers it), and `body` runs only once the source is registered: a
/// SIGINT from then on is never lost.
final class InterruptSignal: Sendable {
    private let received = Counter()

    private init() {}

    /// Whether a SIGINT came while it was taken over.
    var wasReceived: Bool { received.value > 0 }

    /// Runs `body` with SIGINT taken over as the type says.
    static func whileTaken<T>(first: @escaping @Sendable () -> Void, _ body: (InterruptSignal) throws -> T) rethrows -> T {
        let signals = InterruptSignal()
        let before = signal(SIGINT, SIG_IGN)
        if isIgnoring(before) { return try body(signals) }
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "clarityctl.interrupt"))
        let registered = DispatchSemaphore(value: 0)
        source.setRegistrationHandler { registered.signal() }
        source.setEventHandler {
            guard signals.received.increment() > 1 else { return first() }
            FileHandle.standardError.write(Data("clarityctl: interrupted again: quitting without the summary\n".utf8))
            exit(ExitStatus.interrupted.rawValue)
        }
        source.activate()
        registered.wait()
        defer {
            source.cancel()
            signal(SIGINT, before)
        }
        return try body(signals)
    }

    /// Whether `handler`, as `signal(2)` returned it, is `SIG_IGN` (its type is the C library's).
    private static func isIgnoring<Handler>(_ handler: Handler) -> Bool {
        unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// A count shared with the signal's queue.
    private final class Counter: Sendable {
        private let count = Atomic<Int>(0)

        var value: Int { count.load(ordering: .acquiring) }

        /// Adds one; the count after it.
        func increment() -> Int {
            count.add(1, ordering: .acquiringAndReleasing).newValue
        }
    }
}
