import Foundation

/// Remembered answers of a pure, expensive function, shared by every device of the process.
///
/// An exploration runs the same scenario thousands of times, so the platform asks the same
/// questions (a schedule's interval at the same instant, the same stored selection decoded) again
/// and again. Only for pure functions: an answer depends on its key alone, so remembering it
/// changes no trace. Bounded: forgotten wholesale past `capacity` answers.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
public final class SharedMemo<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let capacity: Int
    /// Guards `answers`; held only to look up or store one entry.
    private let lock = NSLock()
    private var answers: [Key: Value] = [:]

    public init(capacity: Int = 4_096) {
        self.capacity = capacity
    }

    /// The answer for `key`, computed by `compute` the first time it is asked for.
    public func value<Failure: Error>(for key: Key, compute: (Key) throws(Failure) -> Value) throws(Failure) -> Value {
        if let known = lock.withLock({ answers[key] }) { return known }
        let value = try compute(key)
        lock.withLock {
            if answers.count >= capacity { answers.removeAll(keepingCapacity: true) }
            answers[key] = value
        }
        return value
    }
}
