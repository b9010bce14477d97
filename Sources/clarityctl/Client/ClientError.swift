import ControlProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why clarityctl could not talk to clarityd (exit status 3).
enum ClientError: Error, CustomStringConvertible {
    /// `connect` (or `socket`) failed with `errno`.
    case cannotConnect(path: String, errno: Int32)
    /// The daemon closed the connection before answering.
    case closedByDaemon
    /// A read or write on the connection failed with `errno`.
    case transport(operation: String, errno: Int32)
    /// The daemon sent a line that is not a JSON-RPC response.
    case invalidResponse(String)
    /// Nothing arrived from the daemon (or no write could progress) for `seconds`, the `--timeout`.
    case timedOut(seconds: Double)
    /// `--standalone` could not start a clarityd of its own (``PrivateDaemon``); why.
    case standaloneFailed(String)

    var description: String {
        switch self {
        case .cannotConnect(let path, let code):
            let hint = code == ENOENT || code == ECONNREFUSED ? " (is clarityd running?)" : ""
            return "cannot connect to clarityd at \(path): \(String(cString: strerror(code)))\(hint)"
        case .closedByDaemon:
            return "connection closed by clarityd"
        case .transport(let operation, let code):
            return "\(operation) failed on the clarityd connection: \(String(cString: strerror(code)))"
        case .invalidResponse(let line):
            return "invalid response from clarityd: \(line.prefix(200))"
        case .timedOut(let seconds):
            return "clarityd did not answer within \(PlainText.scalar(.double(seconds))) s (is it stopped?); "
                + "--timeout SECONDS waits longer, 0 waits forever"
        case .standaloneFailed(let reason):
            return "--standalone: \(reason)"
        }
    }
}
