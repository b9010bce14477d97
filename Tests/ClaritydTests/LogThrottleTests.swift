import Testing

@testable import ClarityDaemon

/// What a client provokes over and over is logged once a second per connection and kind, and
/// every message held back is accounted for in a summary line.
@Suite struct LogThrottleTests {
    private let second = LogThrottle.window

    @Test func oneMessagePerSubjectAndKindPerWindow() {
        var throttle = LogThrottle()
        #expect(throttle.admit(subject: "connection 1", kind: "parse error", level: .warning, now: 10).0)
        for offset in 1..<1000 {
            #expect(!throttle.admit(subject: "connection 1", kind: "parse error", level: .warning, now: 10 + UInt64(offset)).0)
        }
        // Another kind, or another connection, is not held back by it.
        #expect(throttle.admit(subject: "connection 1", kind: "invalid request", level: .warning, now: 20).0)
        #expect(throttle.admit(subject: "connection 2", kind: "parse error", level: .warning, now: 20).0)
    }

    @Test func theNextMessageAfterTheWindowComesWithASummary() {
        var throttle = LogThrottle()
        _ = throttle.admit(subject: "connection 1", kind: "parse error", level: .warning, now: 0)
        for _ in 0..<41 { _ = throttle.admit(subject: "connection 1", kind: "parse error", level: .warning, now: 5) }
        let (admitted, summaries) = throttle.admit(subject: "connection 1", kind: "parse error", level: .warning, now: second)
        #expect(admitted)
        #expect(summaries == [.init(level: .warning, text: "connection 1: 41 similar messages suppressed (parse error)")])
        // A quiet window has nothing to sum up.
        #expect(throttle.admit(subject: "connection 1", kind: "parse error", level: .warning, now: 3 * second) == (true, []))
    }

    @Test func forgettingAConnectionSumsUpWhatItHeldBack() {
        var throttle = LogThrottle()
        _ = throttle.admit(subject: "connection 3", kind: "invalid request", level: .warning, now: 0)
        _ = throttle.admit(subject: "connection 3", kind: "invalid request", level: .warning, now: 1)
        _ = throttle.admit(subject: "connection 3", kind: "parse error", level: .warning, now: 1)
        _ = throttle.admit(subject: "connection 3", kind: "parse error", level: .warning, now: 2)
        _ = throttle.admit(subject: "connection 3", kind: "parse error", level: .warning, now: 3)
        #expect(
            throttle.forget(subject: "connection 3") == [
                .init(level: .warning, text: "connection 3: 1 similar message suppressed (invalid request)"),
                .init(level: .warning, text: "connection 3: 2 similar messages suppressed (parse error)"),
            ])
        #expect(throttle.forget(subject: "connection 3") == [])
        // Forgotten, the connection's next message is written at once.
        #expect(throttle.admit(subject: "connection 3", kind: "parse error", level: .warning, now: 4).0)
    }

    /// A subject nobody forgets (the listener) has its summary written with the next throttled
    /// message about anything, once its window has passed.
    @Test func otherSubjectsFlushClosedWindows() {
        var throttle = LogThrottle()
        _ = throttle.admit(subject: "listener", kind: "refused client", level: .warning, now: 0)
        _ = throttle.admit(subject: "listener", kind: "refused client", level: .warning, now: 1)
        let (admitted, summaries) = throttle.admit(subject: "connection 9", kind: "parse error", level: .warning, now: 2 * second)
        #expect(admitted)
        #expect(summaries == [.init(level: .warning, text: "listener: 1 similar message suppressed (refused client)")])
    }
}
