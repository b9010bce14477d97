import Foundation
import SimulatediOS
import Testing

@testable import WalletServer

/// Wallet's server on its own: each route's answer and refusal, and what an observer may call.
@Suite struct WalletServerTests {
    private let alice = ServerCaller(device: "alice", timezone: "UTC", platform: "ios")

    private func send(_ method: String, _ path: String, _ body: String?, to server: inout WalletServer) -> (Int, String, Bool) {
        let request = NetworkRequest(url: "https://api.wallet.example" + path, httpMethod: method, httpBody: body.map { Data($0.utf8) })
        let served = server.serve(request, from: alice)
        return (served.response.statusCode, String(decoding: served.response.body, as: UTF8.self), served.refusedBeforeAnyChange)
    }

    @Test func earningAndSpendingMoveTheCallersBalance() {
        var server = WalletServer(instance: "default", now: 0)
        #expect(send("POST", "/earn", #"{"minutes":30}"#, to: &server) == (200, #"{"balance":30}"#, false))
        #expect(send("POST", "/spend", #"{"minutes":10}"#, to: &server) == (200, #"{"balance":20}"#, false))
        #expect(send("GET", "/balance", nil, to: &server) == (200, #"{"balance":20}"#, false))
        #expect(send("PUT", "/balance", #"{"balance":50}"#, to: &server) == (200, #"{"balance":50}"#, false))
        #expect(server.balance(of: "alice") == 50 && server.balance(of: "bob") == 0)
    }

    /// Every refusal leaves the server as it was, and says why.
    @Test func refusalsChangeNothing() {
        var server = WalletServer(instance: "default", now: 0)
        _ = send("POST", "/earn", #"{"minutes":5}"#, to: &server)
        let before = server
        #expect(send("POST", "/spend", #"{"minutes":10}"#, to: &server) == (409, #"{"error":"insufficientBalance"}"#, true))
        #expect(send("POST", "/earn", #"{"minutes":0}"#, to: &server) == (400, #"{"error":"minutes must be 1 to 5256000"}"#, true))
        #expect(send("POST", "/spend", #"{"minutes":1441}"#, to: &server) == (400, #"{"error":"minutes must be 1 to 1440"}"#, true))
        #expect(send("POST", "/earn", #"{"minutes":"ten"}"#, to: &server) == (400, #"{"error":"badRequest"}"#, true))
        #expect(send("PUT", "/balance", #"{"balance":-1}"#, to: &server) == (400, #"{"error":"balance must be 0 to 5256000"}"#, true))
        #expect(send("DELETE", "/balance", nil, to: &server) == (404, #"{"error":"notFound"}"#, true))
        #expect(server == before)
    }

    /// Earnings stop at the most a balance holds, however many: no overflow.
    @Test func aBalanceStopsAtItsMost() {
        var server = WalletServer(instance: "default", now: 0)
        _ = send("PUT", "/balance", #"{"balance":5256000}"#, to: &server)
        #expect(send("POST", "/earn", #"{"minutes":1440}"#, to: &server) == (200, #"{"balance":5256000}"#, false))
    }
}
