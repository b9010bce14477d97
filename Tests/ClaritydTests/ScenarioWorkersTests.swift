import ControlProtocol
import Testing

@testable import ClarityDaemon

/// The scenario threads' admission (`ScenarioWorkers.perform`): a request answered lets go of
/// everything it held.
@Suite struct ScenarioWorkersTests {
    private final class Held: Sendable {
        let value = 7
    }

    /// The cancellation handler that withdraws a queued job holds the job, the job its caller,
    /// the caller the cancellation: once the request is answered the handler is forgotten, so the
    /// cancellation, the caller and what the work held are freed (the soak's exploration a
    /// second kept every request's scenario before).
    @Test func anAnsweredRequestLeavesNothingBehind() throws {
        let workers = ScenarioWorkers(threads: 1, queueLimit: 1)
        weak var heldCancellation: RequestCancellation?
        weak var heldWork: Held?
        do {
            let cancellation = RequestCancellation()
            let caller = Caller(
                connection: 1, subscriptions: ConnectionSubscriptions(budget: ByteBudget(limit: 1024)), waits: nil,
                cancellation: cancellation)
            let held = Held()
            heldCancellation = cancellation
            heldWork = held
            let answer = try workers.perform(.scenarioExplore, for: caller) { [caller, held] in
                caller.connection + held.value
            }
            #expect(answer == 8)
        }
        // The one scenario thread lets go of a job when it turns to the next: once a second
        // request is answered, nothing of the thread's still holds the first.
        let next = Caller(
            connection: 2, subscriptions: ConnectionSubscriptions(budget: ByteBudget(limit: 1024)), waits: nil,
            cancellation: RequestCancellation())
        #expect(try workers.perform(.scenarioExplore, for: next) { 0 } == 0)
        #expect(heldCancellation == nil, "the request's cancellation is freed")
        #expect(heldWork == nil, "what its work held is freed")
    }
}
