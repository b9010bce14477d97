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
