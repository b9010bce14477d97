import Foundation
import Testing

/// The protocol fuzzer (docs/fuzzing.md): first the known reproducers, each a fixed case, then
/// seeded random requests over several connections with restarts, checked after every round.
///
/// `swift test` fuzzes for 15 s with the day's seed. `CLARITYD_FUZZ_SECONDS=1800 swift test
/// --filter FuzzTests` runs longer; `CLARITYD_FUZZ_SEED=N` replays a seed.
@Suite(.serialized) struct FuzzTests {
    @Test(arguments: RegressionCase.all)
    func knownReproducers(_ regression: RegressionCase) async throws {
        let problems = try await onThread {
            let probe = try RegressionProbe()
            regression.body(probe)
            probe.finish()
            return probe.problems
        }
        for problem in problems {
            Issue.record(Comment(rawValue: "regression \(regression.name): \(problem)"))
        }
    }

    @Test func randomRequests() async throws {
        let settings = FuzzSettings.fromEnvironment()
        say("FuzzTests: seed \(settings.seed), \(settings.rounds.map { "\($0) rounds" } ?? "\(Int(settings.seconds)) s"), \(settings.workers) workers — replay with \(settings.replayHint)")
        let report = await onThread { FuzzRun(settings: settings).run() }
        say(report.summary)
        for finding in report.notes {
            say("FuzzTests note — \(finding.kind.rawValue) ×\(finding.count):\n\(finding.detail)")
        }
        for finding in report.failures {
            Issue.record(
                Comment(
                    rawValue: "\(finding.kind.rawValue) ×\(finding.count) (seed \(settings.seed); replay with \(settings.replayHint))\n\(finding.detail)"
                ))
        }
    }
}

/// Runs `body` on a thread of its own (with a large stack), off Swift concurrency's few threads:
/// the fuzzer blocks on sockets for seconds at a time.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 16 << 20
        thread.start()
    }
}

func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            continuation.resume(returning: body())
        }
        thread.stackSize = 16 << 20
        thread.start()
    }
}

/// Writes `text` and a newline to standard output at once: `print` to a file or pipe is buffered,
/// and a long run's progress should show while it runs.
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
