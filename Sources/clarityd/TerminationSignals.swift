import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns SIGTERM and SIGINT into a clean ``Shutdown``.
///
/// Each signal is ignored first and only then given a dispatch source: on Darwin a source
/// only sees an ignored signal, and on Linux ignoring after creating the source stops delivery
/// (docs/architecture.md, "The daemon on Linux"). The sources live as long as this object.
///
/// `@unchecked Sendable`: `sources` is set once and never touched again.
final class TerminationSignals: @unchecked Sendable {
    private let sources: [DispatchSourceSignal]

    init(shutdown: Shutdown) {
        let queue = DispatchQueue(label: "clarityd.signals")
        sources = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")].map { number, name in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { shutdown.run(reason: name) }
            source.activate()
            return source
        }
    }
}
