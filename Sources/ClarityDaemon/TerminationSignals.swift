import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns SIGTERM and SIGINT into a clean ``Shutdown``.
///
/// On Darwin each signal is ignored first and only then given a dispatch source: a kqueue source
/// sees an ignored signal, and the default action would end the process. On Linux, Dispatch
/// installs a handler of its own when it registers the source, and ignoring the signal after that
/// stops delivery (docs/architecture.md, "The daemon on Linux"); ignoring it before registration
/// made a SIGTERM in between vanish, so there the default action stays until Dispatch takes over.
/// Either way `init` returns only once both sources are registered: before the daemon serves, a
/// SIGTERM ends it at once (nothing has been answered); from then on, it is a clean shutdown. The
/// sources live as long as this object.
// unchecked: immutable; Dispatch's source protocols are not marked Sendable
final class TerminationSignals: @unchecked Sendable {
    private let sources: [DispatchSourceSignal]

    init(shutdown: Shutdown) {
        let queue = DispatchQueue(label: "clarityd.signals")
        sources = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")].map { number, name in
            Self.handle(number, on: queue) { shutdown.run(reason: name) }
        }
    }

    /// A dispatch source running `handler` on `queue` for signal `number`, registered as the type
    /// comment says (ignored first on Darwin; Dispatch's own handler on Linux); returns once the
    /// source is in place. Keep it: the signal is handled while it lives.
    static func handle(_ number: Int32, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void)
        -> DispatchSourceSignal
    {
        #if canImport(Darwin)
            signal(number, SIG_IGN)
        #endif
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        let registered = DispatchSemaphore(value: 0)
        source.setRegistrationHandler { registered.signal() }
        source.setEventHandler(handler: handler)
        source.activate()
        registered.wait()
        return source
    }
}
