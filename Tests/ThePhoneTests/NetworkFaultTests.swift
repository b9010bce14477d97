import BuiltInApps
import DeviceTesting
import ExtensionSandbox
import Foundation
import SimulatediOS
import Testing
import ThePhoneBackend

@testable import DeviceActors

/// The network's faults an exploration may fire (docs/platform.md, "Faults"): a request lost on
/// the way, a server error, an answer that never comes back. Each is traced `fault` at the
/// request, the app gets the error `URLSession` would give, and the server did (or did not) act
/// as the fault says. The Phone's sync after a lock is the request struck (the first site: the
/// sign-up at launch comes before the exploration's faults are armed).
@Suite struct NetworkFaultTests {
    /// The lock automation installed, then a lock: recorded and synced.
    static let steps: [ScenarioStep] = [
        .intent("installAutomation", ["trigger": "lock", "askBeforeRunning": false]), .event(.lock),
    ]

    private func struck(by fault: Fault) throws -> (trace: [Effect], events: Int) {
        let scenario = try Scenario("a lock synced", app: .thePhone, steps: Self.steps, builtInInvariants: false)
        let token = ScheduleToken(scenarioHash: scenario.hash, deviations: [], faults: [FaultSite(fault, at: 0)])
        let outcome = try scenario.replay(schedule: token.description)
        let backend = try #require(outcome.device?.connection?.servers.first)
        let events = try #require(backend.read(PhoneBackend.self) { (try? $0.events(of: "scenario"))?.count ?? 0 })
        return (outcome.trace.map(\.entry.payload), events)
    }

    @Test func aLostRequestNeverReachesTheServer() throws {
        let (trace, events) = try struck(by: .requestLost)
        #expect(trace.contains(.fault(fault: "requestLost", at: "POST /events/sync")))
        #expect(trace.contains(.networkRequest(method: "POST", path: "/events/sync", status: nil, error: "networkConnectionLost")))
        #expect(events == 0, "the server never heard of the lock")
    }

    @Test func aServerErrorIsAnsweredWithoutActing() throws {
        let (trace, events) = try struck(by: .serverError)
        #expect(trace.contains(.fault(fault: "serverError", at: "POST /events/sync")))
        #expect(trace.contains(.networkRequest(method: "POST", path: "/events/sync", status: 500, error: nil)))
        #expect(events == 0)
    }

    @Test func aTimedOutRequestWasActedOnButItsAnswerIsLost() throws {
        let (trace, events) = try struck(by: .requestTimedOut)
        #expect(trace.contains(.fault(fault: "requestTimedOut", at: "POST /events/sync")))
        #expect(trace.contains(.networkRequest(method: "POST", path: "/events/sync", status: nil, error: "timedOut")))
        #expect(events == 1, "the server stored the lock; the phone does not know")
    }
}
