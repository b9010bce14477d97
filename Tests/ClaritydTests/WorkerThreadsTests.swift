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
    private static func kernelName() -> String? {
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
    /// The system's names of this process's threads.
    private static func threadNames() -> [String] {
        #if os(Linux)
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.compactMap { task in
                (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .newlines)
            }
        #else
            return []
        #endif
    }

    @Test func threadsThatEndWhenIdleRunSideBySideThenLeaveNoneBehind() {
        let threads = WorkerThreads(name: "test.ending", count: 2, endWhenIdle: true)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<3 {
            threads.submit {
                started.signal()
                release.wait()
            }
        }
        // Two jobs run at once (the count); the third waits for one of them.
        started.wait()
        started.wait()
        #if os(Linux)
            #expect(Self.threadNames().filter { $0.hasPrefix("test.ending.") }.sorted() == ["test.ending.0", "test.ending.1"])
        #endif
        release.signal()
        started.wait()
        release.signal()
        release.signal()
        // Both threads find the queue empty and end.
        #expect(threads.waitUntilNoThreadRuns(within: 60))

        // The next job starts a thread again, under the first index.
        let name = Protected<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        threads.submit {
            name.withLock { $0 = Self.threadNames().first { $0.hasPrefix("test.ending.") } }
            done.signal()
        }
        done.wait()
        #expect(threads.waitUntilNoThreadRuns(within: 60))
        #if os(Linux)
            #expect(name.withLock { $0 } == "test.ending.0")
        #endif
    }

    @Test func aPoolNeverRunsMoreThreadsThanItsCount() {
        let threads = WorkerThreads(name: "test.keeping", count: 2)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<6 {
            threads.submit {
                started.signal()
                release.wait()
            }
        }
        started.wait()
        started.wait()
        #if os(Linux)
            #expect(Self.threadNames().filter { $0.hasPrefix("test.keeping.") }.sorted() == ["test.keeping.0", "test.keeping.1"])
        #endif
        for _ in 0..<4 {
            release.signal()
            started.wait()
        }
        release.signal()
        release.signal()
    }
}
