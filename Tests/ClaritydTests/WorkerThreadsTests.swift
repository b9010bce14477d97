import Dispatch
import Foundation
import Testing

@testable import ClarityDaemon

#if canImport(Darwin)
    import Darwin
#endif

/// The daemon's own threads carry names a profiler shows (`top -H`, gdb, perf), within the
/// 15 bytes Linux keeps.
@Suite struct WorkerThreadsTests {
    @Test func aWorkerThreadRunsUnderItsShortenedName() {
        let threads = WorkerThreads(name: "clarityd.restore", count: 1)
        let seen = Protected<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        threads.submit {
            seen.withLock { $0 = Self.kernelName() }
            done.signal()
        }
        done.wait()
        #expect(seen.withLock { $0 } == "clarityd.rest.0")
    }

    /// The calling thread's name as the system keeps it.
    static func kernelName() -> String? {
        #if os(Linux)
            return (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines)
        #else
            var buffer = [CChar](repeating: 0, count: 64)
            guard pthread_getname_np(pthread_self(), &buffer, buffer.count) == 0 else { return nil }
            return String(cString: buffer)
        #endif
    }

    @Test func namesKeepTheirIndexWithinFifteenBytes() {
        #expect(WorkerThreads.threadName("clarityd.sync", 3) == "clarityd.sync.3")
        #expect(WorkerThreads.threadName("clarityd.scenario", 12) == "clarityd.sce.12")
        #expect(WorkerThreads.threadName("test", 0) == "test.0")
    }
}

/// A pool made to end its idle threads runs its jobs side by side up to its count, then leaves
/// no thread behind, and starts again for the next job (the restore pool, after a daemon's start).
@Suite struct WorkerThreadsEndingTests {
    /// Jobs that each note the name of the thread running them, then wait to be released.
    private final class BlockingJobs: Sendable {
        private let started = DispatchSemaphore(value: 0)
        private let releases = DispatchSemaphore(value: 0)
        private let names = Protected<[String]>([])

        init(_ count: Int, on threads: WorkerThreads) {
            for _ in 0..<count {
                threads.submit { [self] in
                    names.withLock { $0.append(WorkerThreadsTests.kernelName() ?? "?") }
                    started.signal()
                    releases.wait()
                }
            }
        }

        /// Waits for `count` more jobs to start; returns the thread names of those started so far.
        func awaitStarts(_ count: Int) -> [String] {
            for _ in 0..<count { started.wait() }
            return names.withLock { $0 }
        }

        func release(_ count: Int) {
            for _ in 0..<count { releases.signal() }
        }
    }

    @Test func threadsThatEndWhenIdleRunSideBySideThenLeaveNoneBehind() {
        let threads = WorkerThreads(name: "test.ending", count: 2, endWhenIdle: true)
        let jobs = BlockingJobs(3, on: threads)
        // Two jobs run at once (the count); the third waits for one of them.
        #expect(jobs.awaitStarts(2).sorted() == ["test.ending.0", "test.ending.1"])
        jobs.release(1)
        #expect(jobs.awaitStarts(1).count == 3)
        jobs.release(2)
        // Both threads find the queue empty and end.
        #expect(threads.waitUntilNoThreadRuns(within: 60))

        // The next job starts a thread again, under the first index.
        let next = BlockingJobs(1, on: threads)
        #expect(next.awaitStarts(1) == ["test.ending.0"])
        next.release(1)
        #expect(threads.waitUntilNoThreadRuns(within: 60))
    }

    @Test func aPoolNeverRunsMoreThreadsThanItsCount() {
        let threads = WorkerThreads(name: "test.keeping", count: 2)
        let jobs = BlockingJobs(6, on: threads)
        #expect(jobs.awaitStarts(2).sorted() == ["test.keeping.0", "test.keeping.1"])
        for _ in 0..<4 {
            jobs.release(1)
            _ = jobs.awaitStarts(1)
        }
        jobs.release(2)
        #expect(Set(jobs.awaitStarts(0)) == ["test.keeping.0", "test.keeping.1"])
    }
}
