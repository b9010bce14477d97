import ControlProtocol
import Dispatch
import Foundation
import Testing

@testable import clarityctl

/// Watching and stopping an exploration from the command line (issue 39): the progress line on a
/// terminal and in a log, the seeds covered and the command that resumes, `cancel`'s params, and
/// the exit status of an exploration stopped by Ctrl-C or `cancel`.
@Suite struct ExplorationControlTests {
    /// On a terminal, `explore` draws its progress as a bar of 20.
    @Test func theProgressBarFillsWithTheSchedulesDone() {
        #expect(ExplorationProgressView.bar(done: 0, of: 1000, failed: 0) == "[····················] 0/1000 schedules, 0 failed")
        #expect(ExplorationProgressView.bar(done: 500, of: 1000, failed: 2) == "[##########··········] 500/1000 schedules, 2 failed")
        #expect(ExplorationProgressView.bar(done: 1000, of: 1000, failed: 0) == "[####################] 1000/1000 schedules, 0 failed")
        #expect(ExplorationProgressView.bar(done: 7, of: 3, failed: 0).hasPrefix("[####################]"))
    }

    /// In a log, a sentence with the counts grouped and the seeds all run from the first.
    @Test func thePlainLineSaysTheCountsAndTheSeedsCovered() {
        let seeds = SeedRange(schedules: 1_000_000)
        let progress: JSONValue = ["schedules": 1_000_000, "done": 12_340, "failed": 0, "covered": 12_340]
        #expect(
            ExplorationProgressView.text(progress, style: .plain, label: "explore", seeds: seeds)
                == "explore: 12,340 of 1,000,000 schedules, 0 failed, seeds 0–12339")
        let notYet: JSONValue = ["schedules": 1_000_000, "done": 0, "failed": 0, "covered": 0]
        #expect(
            ExplorationProgressView.text(notYet, style: .plain, label: "explore: a.json", seeds: seeds)
                == "explore: a.json: 0 of 1,000,000 schedules, 0 failed")
        #expect(ExplorationProgressView.text(["method": "trace"], style: .plain, label: "explore", seeds: seeds) == nil)
        #expect(PlainText.grouped(999) == "999" && PlainText.grouped(1000) == "1,000" && PlainText.grouped(-1_234_567) == "-1,234,567")
    }

    /// Off a terminal the line comes every interval (here a millisecond, not 5 s) with the seconds
    /// so far, and nothing is erased; the test waits for the second line, not for a time.
    @Test func offATerminalTheProgressLineIsWrittenEveryInterval() {
        let written = Lines()
        let twoLines = DispatchSemaphore(value: 0)
        let status = ProgressLine.Status("explore: 4 of 10 schedules, 1 failed, seeds 0–3")
        let waited = ProgressLine.whileRunning(
            status, style: .plain, plainInterval: .milliseconds(1),
            write: { line in if written.append(line) == 2 { twoLines.signal() } }
        ) { _ in twoLines.wait(timeout: .now() + 30) }
        #expect(waited == .success)
        let lines = written.all
        #expect(lines.count >= 2)
        for line in lines {
            #expect(line.hasPrefix("explore: 4 of 10 schedules, 1 failed, seeds 0–3, ") && line.hasSuffix(" s\n"), "\(line)")
            #expect(!line.contains("\r") && !line.contains("\u{1B}"))
        }
    }

    /// What ran all from the first, and the `--seed-start` and `--schedules` that go on without
    /// leaving out a seed: with a shard, its every n-th schedule.
    @Test func theSeedsCoveredAndWhereToGoOn() {
        let plain = SeedRange(seedStart: 100, schedules: 1000)
        #expect(plain.text(covered: 0) == nil)
        #expect(plain.text(covered: 1) == "100")
        #expect(plain.text(covered: 410) == "100–509")
        #expect(plain.resumption(afterCovered: 410)! == (seedStart: 510, schedules: 590))
        #expect(plain.resumption(afterCovered: 1000) == nil)
        let shard = SeedRange(seedStart: 0, schedules: 10, shardIndex: 1, shardCount: 3)
        #expect(shard.count == 3, "schedules 1, 4 and 7")
        #expect(shard.text(covered: 2) == "1–4, one in 3")
        #expect(shard.resumption(afterCovered: 2)! == (seedStart: 6, schedules: 4), "then schedule 7 is seed 6 + 1")
        #expect(shard.resumption(afterCovered: 3) == nil)
    }

    /// Cancelled or stopped by the daemon after schedules that passed is no pass: what was asked
    /// was not all looked at. A time limit is the caller's own bound, so it still passes.
    @Test func anExplorationStoppedFromOutsideIsNoPass() {
        let cancelled: JSONValue = ["schedules": 412, "failed": 0, "stoppedBy": "cancelled"]
        #expect(ExplorationVerdict(cancelled) == .stopped(by: "cancelled", schedules: 412))
        #expect(ExplorationVerdict(cancelled).reason == "stopped (cancelled) after 412 schedules, before the rest ran: not a pass")
        #expect(ExplorationVerdict(["schedules": 412, "failed": 0, "stoppedBy": "timeLimit"]) == .passed)
        #expect(ExplorationVerdict(["schedules": 412, "failed": 1, "stoppedBy": "cancelled"]) == .failed(failed: 1, schedules: 412))
    }

    @Test func cancelSendsTheIdAndTheConnection() throws {
        #expect(try parsedCommand(ScenarioCancel.self, ["2", "--connection", "7"]).params == ["id": 2, "connection": 7])
        #expect(try parsedCommand(ScenarioCancel.self, ["nightly"]).params == ["id": "nightly"])
        #expect(throws: UsageError.self) { try parsedCommand(ScenarioCancel.self, ["2", "--connection", "0"]) }
        #expect(throws: UsageError.self) { try parsedCommand(ScenarioCancel.self, []) }
    }

    @Test func ctrlCEndsWithStatus130AndItsMessage() {
        let report = FailureReport(Interrupted(message: "explore: interrupted (Ctrl-C) after 3 schedules"), command: "explore")
        #expect(report.status.rawValue == 130)
        #expect(report.text == "clarityctl: explore: interrupted (Ctrl-C) after 3 schedules")
        #expect(report.json == nil)
    }

    /// Lines written from the progress line's queue, read by the test.
    private final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []

        /// Adds `line`; how many there are now.
        func append(_ line: String) -> Int {
            lock.withLock {
                lines.append(line)
                return lines.count
            }
        }

        var all: [String] { lock.withLock { lines } }
    }
}
