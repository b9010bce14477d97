import Foundation

/// Whether the main app's process is in memory, and which launch of it runs (`app.terminate`,
/// docs/platform.md, "The main app's process"): a main-app timer set in one launch never runs in
/// another (`timer.lost`, reason `terminated`). Read synchronously by the platform; shared by every
/// copy of it.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
@_spi(Host) public final class MainAppLife: @unchecked Sendable {
    private let lock = NSLock()
    private var launch = 0
    private var running = true

    @_spi(Host) public init() {}

    /// The process is in memory.
    @_spi(Host) public var inMemory: Bool { lock.withLock { running } }

    /// The launch running now (changes at every relaunch).
    @_spi(Host) public var current: Int { lock.withLock { launch } }

    /// Whether launch `launch` is still the one in memory.
    @_spi(Host) public func isRunning(_ launch: Int) -> Bool { lock.withLock { running && self.launch == launch } }

    @_spi(Host) public func terminate() { lock.withLock { running = false } }

    @_spi(Host) public func relaunch() {
        lock.withLock {
            launch += 1
            running = true
        }
    }

    /// A device restored with its main app out of memory.
    @_spi(Host) public func restore(inMemory: Bool) { lock.withLock { running = inMemory } }
}
