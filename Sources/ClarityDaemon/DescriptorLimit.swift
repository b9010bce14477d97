import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The daemon's file-descriptor budget: at start the soft limit (`ulimit -n`) is raised to the
/// hard one, as servers do (a launchd agent's soft limit is 256), and a quarter of it, 8 to
/// 1024, is lent to journals (``JournalDescriptors``); the rest stays for clients, the event
/// loops and the files the daemon opens now and then. `daemon.status` reports it (`descriptors`).
enum DescriptorLimit {
    /// Raises the soft limit to the hard one (on Darwin at most `OPEN_MAX`); returns the soft
    /// limit in force, and says in the log when it changed.
    static func raise(log: Logger) -> Int {
        var limits = rlimit()
        guard getrlimit(resource, &limits) == 0 else { return 256 }
        var wanted = limits.rlim_max
        #if canImport(Darwin)
            wanted = min(wanted, rlim_t(OPEN_MAX))
        #endif
        if wanted > limits.rlim_cur {
            let before = limits.rlim_cur
            limits.rlim_cur = wanted
            if setrlimit(resource, &limits) == 0 {
                log.info("descriptors: soft limit raised from \(before) to \(wanted)")
            } else {
                _ = getrlimit(resource, &limits)
            }
        }
        return Int(clamping: limits.rlim_cur)
    }

    /// Journal descriptors kept open at most, for a soft limit of `limit`.
    static func journals(for limit: Int) -> Int {
        min(1024, max(8, limit / 4))
    }

    /// Descriptors open in the process now (-1 when it cannot tell).
    static var openCount: Int {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd") else { return -1 }
        return entries.count - 1  // the directory's own, open while it is listed
    }

    #if canImport(Glibc)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif
}
