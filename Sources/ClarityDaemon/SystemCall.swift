import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: its name, the object it was about and `errno`, readable in a log line.
struct SystemCallError: Error, CustomStringConvertible {
    let call: String
    let subject: String
    let code: Int32

    /// Captures the current `errno`.
    init(_ call: String, _ subject: String = "") {
        self.call = call
        self.subject = subject
        self.code = errno
    }

    var description: String {
        let reason = String(cString: strerror(code))
        return subject.isEmpty ? "\(call): \(reason)" : "\(call) \(subject): \(reason)"
    }
}

/// Small POSIX helpers shared by the listener and the connections, portable between Glibc and Darwin.
enum SystemCall {
    /// Flags for `send`: `MSG_NOSIGNAL` on Linux; Darwin has none and uses `SO_NOSIGPIPE` instead.
    static var sendFlags: Int32 {
        #if os(Linux)
            Int32(MSG_NOSIGNAL)
        #else
            0
        #endif
    }

    /// Names the calling thread as `top -H`, gdb and perf show it (15 bytes at most on Linux).
    /// Not `Thread.current.name =`: Foundation applies that only once the thread that started
    /// this one has stored its handle, so a thread naming itself first thing could keep its
    /// creator's name (`WorkerThreadsTests` saw a worker named as the test's Dispatch thread).
    static func nameCurrentThread(_ name: String) {
        #if canImport(Glibc)
            typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
            guard let setName = glibc("pthread_setname_np", as: SetName.self) else { return }
            _ = setName(pthread_self(), name)
        #else
            _ = pthread_setname_np(name)
        #endif
    }

    /// A new Unix stream socket, close-on-exec.
    static func makeStreamSocket() throws(SystemCallError) -> Int32 {
        #if os(Linux)
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SystemCallError("socket") }
        #if !os(Linux)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #endif
        return fd
    }

    /// Prepares an accepted socket: non-blocking, close-on-exec, and on Darwin no SIGPIPE.
    static func prepareAccepted(_ fd: Int32) throws(SystemCallError) {
        guard fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else { throw SystemCallError("fcntl(F_SETFD)") }
        try setNonBlocking(fd)
        #if !os(Linux)
            var on: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    static func setNonBlocking(_ fd: Int32) throws(SystemCallError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw SystemCallError("fcntl(O_NONBLOCK)")
        }
    }

    /// Makes the calling thread give way to the daemon's other threads when the cores are
    /// short: niceness 5 on Linux (where niceness is per thread: `setpriority` with 0 names the
    /// calling thread), the utility QoS class on Darwin.
    static func lowerThreadPriority() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
        #else
            _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
        #endif
    }

    /// Gives memory the allocator holds free back to the system (glibc's `malloc_trim`, found at
    /// run time; Darwin's allocator does so by itself): after a burst that allocated and freed a
    /// lot, such as replaying journals at start.
    static func returnFreedMemory() {
        #if canImport(Glibc)
            typealias Trim = @convention(c) (Int) -> Int32
            _ = glibc("malloc_trim", as: Trim.self)?(0)
        #endif
    }

    /// Calls ``returnFreedMemory()`` every `interval` on a utility queue, for as long as the
    /// returned timer is kept. glibc keeps what a busy daemon frees, scattered between the blocks
    /// still in use, as its own: under the soak (docs/reliability.md) RSS went on growing about
    /// 8 MB a minute over a live heap that did not, and a trim every 10 s gives those pages back.
    static func returnFreedMemory(every interval: DispatchTimeInterval) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "clarityd.trim", qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .seconds(1))
        timer.setEventHandler { returnFreedMemory() }
        timer.resume()
        return timer
    }

    /// Makes glibc's allocator give large blocks back when they are freed (the blocks of
    /// 128 KiB and more go to their own mappings, always: glibc otherwise raises that threshold to
    /// the largest block freed so far, up to 32 MiB, and the traces' arrays, reallocated as they
    /// roll, then fragment the heap) and trim the heap's top above 1 MiB. Found by the soak
    /// (docs/reliability.md): the same load held 118 MB of RSS with glibc's defaults, 81 MB so.
    /// Darwin's allocator needs nothing.
    static func tuneAllocator() {
        #if canImport(Glibc)
            typealias Option = @convention(c) (Int32, Int32) -> Int32
            guard let mallopt = glibc("mallopt", as: Option.self) else { return }
            let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3
            _ = mallopt(mmapThreshold, 128 << 10)
            _ = mallopt(trimThreshold, 1 << 20)
        #endif
    }

    #if canImport(Glibc)
        /// glibc's function `name`, looked up at run time (nil in a libc without it), as `type`.
        private static func glibc<Function>(_ name: String, as type: Function.Type) -> Function? {
            dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
        }
    #endif

    /// True when the last call failed only because it would have blocked.
    static var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }
}
