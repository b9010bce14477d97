import Foundation
import SimulatediOS

/// Wallet's HTTP API over a ``WalletServer``, as the calling user reaches it. Every answer is
/// `{"balance": n}`; a refusal is `{"error": reason}` with its status: 400 a body that does not
/// decode or minutes out of range, 404 no such route, 409 a spend the balance cannot cover.
/// Every refusal is made before any change.
struct WalletRoutes {
    let user: String

    /// Minutes one spending may take: a whole day at most (an unlock's price).
    static let minutesPerSpend = 1...1_440
    /// Minutes one earning may add: what a phone gathered offline over any time, up to the most
    /// a balance holds.
    static let minutesPerEarning = 1...WalletServer.maxBalance

    func serve(_ request: NetworkRequest, on server: inout WalletServer) -> ServedRequest {
        do {
            return ServedRequest(response: try respond(to: request, on: &server))
        } catch {
            return ServedRequest(response: answer(error.status, ["error": error.reason]), refusedBeforeAnyChange: true)
        }
    }

    private func respond(to request: NetworkRequest, on server: inout WalletServer) throws(Refusal) -> HTTPResponse {
        let balance = server.balance(of: user)
        switch "\(request.httpMethod) \(request.path)" {
        case "GET /balance":
            return answer(200, Balance(balance: balance))
        case "POST /earn":
            let minutes = try decode(Minutes.self, request).minutes
            try Self.check(minutes, in: Self.minutesPerEarning, "minutes")
            let total = min(balance + minutes, WalletServer.maxBalance)
            server.setBalance(total, of: user)
            return answer(200, Balance(balance: total))
        case "POST /spend":
            let minutes = try decode(Minutes.self, request).minutes
            try Self.check(minutes, in: Self.minutesPerSpend, "minutes")
            guard minutes <= balance else { throw Refusal(status: 409, reason: "insufficientBalance") }
            server.setBalance(balance - minutes, of: user)
            return answer(200, Balance(balance: balance - minutes))
        case "PUT /balance":
            let total = try decode(Balance.self, request).balance
            try Self.check(total, in: 0...WalletServer.maxBalance, "balance")
            server.setBalance(total, of: user)
            return answer(200, Balance(balance: total))
        default:
            throw Refusal(status: 404, reason: "notFound")
        }
    }

    private static func check(_ value: Int, in range: ClosedRange<Int>, _ field: String) throws(Refusal) {
        guard range.contains(value) else {
            throw Refusal(status: 400, reason: "\(field) must be \(range.lowerBound) to \(range.upperBound)")
        }
    }

    private func decode<Body: Decodable>(_ type: Body.Type, _ request: NetworkRequest) throws(Refusal) -> Body {
        do {
            return try JSONDecoder().decode(type, from: request.httpBody ?? Data())
        } catch {
            throw Refusal(status: 400, reason: "badRequest")
        }
    }

    /// Sorted keys: what the server answers is traced and journalled, the same bytes every run.
    private func answer(_ status: Int, _ body: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return HTTPResponse(statusCode: status, body: (try? encoder.encode(body)) ?? Data("{}".utf8))
    }

    private struct Refusal: Error {
        let status: Int
        let reason: String
    }

    private struct Minutes: Decodable {
        let minutes: Int
    }

    private struct Balance: Codable {
        let balance: Int
    }
}
