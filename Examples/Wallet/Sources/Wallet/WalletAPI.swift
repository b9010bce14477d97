import Foundation
import SimulatediOS

/// Wallet's client of its server: each call is one round trip and answers the balance the server
/// holds after it, or why it refused. A request that never reached it (offline) is refused
/// (`network`): the intent that sent it fails, and nothing is counted as synced.
struct WalletAPI: Sendable {
    let session: NetworkSession

    /// What a request came back with.
    enum Answer: Sendable, Equatable {
        case balance(Int)
        /// The server refused (`insufficientBalance`, …), with its status.
        case refused(status: Int, reason: String)
    }

    func balance() async throws -> Answer { try await send("GET", "/balance", nil) }
    /// The first version's write-back: the whole balance.
    func putBalance(_ minutes: Int) async throws -> Answer { try await send("PUT", "/balance", ["balance": minutes]) }
    func earn(_ minutes: Int) async throws -> Answer { try await send("POST", "/earn", ["minutes": minutes]) }
    func spend(_ minutes: Int) async throws -> Answer { try await send("POST", "/spend", ["minutes": minutes]) }

    private func send(_ method: String, _ path: String, _ body: [String: Int]?) async throws -> Answer {
        let request = NetworkRequest(
            url: WalletKeys.apiBase + path, httpMethod: method, httpBody: try body.map { try JSONEncoder().encode($0) })
        let response: HTTPResponse
        do {
            response = try await session.data(for: request)
        } catch let error as URLError {
            let why = error.code == .notConnectedToInternet ? "the phone is offline" : "no server answers (\(error.code.rawValue))"
            throw DeviceError.refused(reason: "network", message: "\(method) \(path): \(why)")
        }
        guard response.statusCode == 200 else {
            let reason = (try? JSONDecoder().decode([String: String].self, from: response.body))?["error"] ?? "unknown"
            return .refused(status: response.statusCode, reason: reason)
        }
        return .balance(try JSONDecoder().decode([String: Int].self, from: response.body)["balance"] ?? 0)
    }
}
