import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Accepts clients on the listening socket from its own queue, never blocking on any of them.
///
/// Each accepted socket is made non-blocking and its peer checked: a uid other than ours or
/// root is refused (closed, with a warning). The rest go to `admit`. When the process runs out
/// of descriptors, accepting pauses briefly instead of spinning on the ready socket.
///
/// `@unchecked Sendable`: the stored properties never change after `init`, and the dispatch
/// source is only suspended and resumed from its own queue.
final class Listener: @unchecked Sendable {
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "clarityd.accept")
    private let source: DispatchSourceRead
    private let log: Logger
    private let admit: @Sendable (Int32, PeerCredentials) -> Void

    init(descriptor: Int32, log: Logger, admit: @escaping @Sendable (Int32, PeerCredentials) -> Void) {
        self.descriptor = descriptor
        self.log = log
        self.admit = admit
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [self] in acceptPending() }
    }

    func start() { source.activate() }

    private func acceptPending() {
        while true {
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE:
                    log.error("cannot accept a client: \(SystemCallError("accept")); pausing for 100 ms")
                    source.suspend()
                    queue.asyncAfter(deadline: .now() + .milliseconds(100)) { [self] in source.resume() }
                default:
                    if !SystemCall.wouldBlock { log.error("\(SystemCallError("accept"))") }
                }
                return
            }
            do {
                try SystemCall.prepareAccepted(client)
                let peer = try PeerCredentials.of(client)
                guard peer.isAllowed else {
                    log.warning("refused a client with \(peer): only uid \(getuid()) and root may connect")
                    close(client)
                    continue
                }
                admit(client, peer)
            } catch {
                log.warning("dropped a client: \(error)")
                close(client)
            }
        }
    }
}
