import ControlProtocol
import JSONValues
import Testing

@testable import ClarityDaemon

/// The routing table finds each method by its exact name, among names of the same length, and
/// nothing for a name it does not route (the dispatcher answers that -32601).
@Suite struct RouterTests {
    /// A router of the methods named, each answering its own name.
    private func router(_ methods: [ControlProtocol.Method]) -> Router {
        var router = Router()
        for method in methods {
            router.on(method, .eventLoop) { (_: JSONValue?) in JSONValue.string(method.rawValue) }
        }
        return router
    }

    private func answer(_ router: Router, _ method: String) throws -> JSONValue? {
        guard let route = router.route(for: method) else { return nil }
        let caller = Caller(
            connection: 1, subscriptions: ConnectionSubscriptions(budget: ByteBudget(limit: 1)), waits: nil,
            cancellation: RequestCancellation())
        let reply = try route.handler(nil, caller)
        guard case .value(let value) = reply.result else { return nil }
        return value
    }

    @Test func eachMethodIsFoundByItsExactNameAmongNamesOfTheSameLength() throws {
        // daemon.ping and device.list are both 11 bytes long; store.get, trace.get and clock.now 9.
        let routed: [ControlProtocol.Method] = [.daemonPing, .deviceList, .storeGet, .traceGet, .clockNow]
        let router = router(routed)
        for method in routed {
            #expect(try answer(router, method.rawValue) == .string(method.rawValue))
        }
        #expect(router.methods == Set(routed.map(\.rawValue)))
    }

    @Test func aNameNotRoutedFindsNothing() {
        let router = router([.daemonPing, .deviceList])
        #expect(router.route(for: "daemon.pong") == nil)  // a routed length, no such name
        #expect(router.route(for: "Daemon.ping") == nil)  // names are case-sensitive
        #expect(router.route(for: "daemon.ping.") == nil)
        #expect(router.route(for: "") == nil)
        #expect(router.route(for: String(repeating: "x", count: 10_000)) == nil)
        #expect(router.runsOn("no.such.method") == .eventLoop)
    }
}
