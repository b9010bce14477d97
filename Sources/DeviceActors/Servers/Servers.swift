import Foundation
@_spi(Host) import SimulatediOS

/// The server instances devices reach, by server and instance name (docs/sdk.md, "Your app's own
/// server"). The daemon keeps one directory for all its devices (instance `default` unless a
/// device's setting names another); a scenario's schedule, a test device and anything else made
/// without one gets a private directory of its own, so every schedule starts from fresh
/// instances. An instance is made the first time a device names it, its clock at that device's time.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
public final class Servers: @unchecked Sendable {
    private let lock = NSLock()
    private var instances: [Key: ServerHost] = [:]

    private struct Key: Hashable {
        let server: String
        let instance: String
    }

    /// A directory holding `hosts` (instances read back from disk), or none yet.
    public init(_ hosts: [ServerHost] = []) {
        for host in hosts { instances[Key(server: host.registration.name, instance: host.name)] = host }
    }

    /// The instance `name` of `server`, made (its clock at `now`, ms since 1970) if it does not exist yet.
    public func instance(of server: ServerRegistration, named name: String, now: Int64) -> ServerHost {
        lock.withLock {
            let key = Key(server: server.name, instance: name)
            if let existing = instances[key] { return existing }
            let made = ServerHost(server, name: name, now: now)
            instances[key] = made
            return made
        }
    }

    /// The instance `name` of the server called `server`, if it exists.
    public func existing(_ name: String, of server: String) -> ServerHost? {
        lock.withLock { instances[Key(server: server, instance: name)] }
    }

    /// Every instance, by server then name.
    public var all: [ServerHost] {
        lock.withLock {
            instances.sorted { ($0.key.server, $0.key.instance) < ($1.key.server, $1.key.instance) }.map(\.value)
        }
    }
}
