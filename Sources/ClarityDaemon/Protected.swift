import Foundation

/// A value shared between threads, reached only under its lock.
// unchecked: lock-protected: `value` is reached only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
