import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the daemon listens by default: `$XDG_RUNTIME_DIR/clarityd.sock`, else
/// `/tmp/clarityd-<uid>/clarityd.sock` (DESIGN.md, Persistence and safety).
public enum SocketPath {
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/clarityd.sock"
        }
        return "/tmp/clarityd-\(getuid())/clarityd.sock"
    }

    /// The longest path `sockaddr_un` holds: 107 bytes on Linux, 103 on macOS.
    public static var maxLength: Int {
        #if os(Linux)
            107
        #else
            103
        #endif
    }
}
