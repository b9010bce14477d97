import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the daemon listens by default: `$XDG_RUNTIME_DIR/clarityd.sock`, else
/// `/tmp/clarityd-<uid>/clarityd.sock` (docs/protocol.md, Transport and framing).
public enum SocketPath {
    /// The environment variable both clarityd and clarityctl take the socket from, after the
    /// `--socket` flag and before clarityd.json's `socket` and the default path.
    public static let environmentVariable = "CLARITYD_SOCKET"

    /// `$CLARITYD_SOCKET` when set and not empty.
    public static func fromEnvironment(_ environment: [String: String]) -> String? {
        environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

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
