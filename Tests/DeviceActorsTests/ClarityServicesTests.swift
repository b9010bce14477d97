import Foundation
import Testing

@testable import Clarity
@testable import DeviceActors
@_spi(Host) @testable import SimulatediOS

/// The pure state machines of seed 000's services.
@Suite struct CallVerificationServiceTests {
    private func call(_ connected: Bool, _ ended: Bool) -> CallState {
        CallState(handle: nil, isOutgoing: true, hasConnected: connected, hasEnded: ended, since: 0)
    }

    @Test func outcomesFollowTheSeed() {
        var service = CallVerificationService()
        #expect(service.callChanged(call(false, false), now: 0) == nil, "not watching: ignored")
        service.watchForCall(challengeId: "a")
        #expect(service.callChanged(call(false, false), now: 10) == nil)
        #expect(service.callChanged(call(true, false), now: 12) == nil)
        #expect(service.callChanged(call(true, true), now: 21) == .completed(duration: 11))

        service.watchForCall(challengeId: "b")
        _ = service.callChanged(call(false, false), now: 0)
        _ = service.callChanged(call(true, false), now: 1)
        #expect(service.callChanged(call(true, true), now: 10) == .tooShort)

        service.watchForCall(challengeId: "c")
        _ = service.callChanged(call(false, false), now: 0)
        #expect(service.callChanged(call(false, true), now: 40) == .attempted)
        #expect(service.pendingChallengeId == nil)
    }

    @Test func timeoutOnlyWithoutACall() {
        var service = CallVerificationService()
        service.watchForCall(challengeId: "a")
        #expect(service.timeout(challengeId: "other") == nil)
        #expect(service.timeout(challengeId: "a") == .noCallDetected)
        service.watchForCall(challengeId: "b")
        _ = service.callChanged(call(false, false), now: 0)
        #expect(service.timeout(challengeId: "b") == nil, "a call in progress is not 'no call'")
    }

    @Test func endWithoutDialIsIgnored() {
        var service = CallVerificationService()
        service.watchForCall(challengeId: "a")
        #expect(service.callChanged(call(false, true), now: 5) == nil)
        #expect(service.pendingChallengeId == "a")
    }
}

@Suite struct ClarityProsocialDeterminismTests {
    @Test func challengesWithRandomChoicesReplayByteForByte() throws {
        func run(seed: UInt64) throws -> Data {
            let device = try makeClarityDevice(seed: seed)
            _ = try device.apply(
                .contactsSet([Contact(id: "m", name: "Mom", phone: "+1"), Contact(id: "d", name: "Dad", phone: "+2")]))
            _ = try device.perform(
                intent: "setImportantContacts",
                arguments: TestArguments(values: ["contacts": [["id": "m"], ["id": "d"]]]))
            _ = try device.perform(intent: "selectApps", arguments: TestArguments(values: ["apps": [.string(instagram)]]))
            _ = try device.apply(.appOpen(app: instagram))
            _ = try device.advance(seconds: 600)
            _ = try device.apply(.appOpen(app: "com.clarity.focus"))
            _ = try device.perform(intent: "challenge.open", arguments: TestArguments())
            _ = try device.advance(seconds: 10)
            _ = try device.apply(.appOpen(app: "com.clarity.focus"))
            _ = try device.perform(intent: "challenge.skip", arguments: TestArguments())
            _ = try device.perform(intent: "challenge.open", arguments: TestArguments())
            _ = try device.advance(seconds: 45)
            _ = try device.apply(.appOpen(app: "com.clarity.focus"))
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            var data = try encoder.encode(device.traceEntries(since: nil, limit: nil))
            data.append(try encoder.encode(device.state()))
            return data
        }
        #expect(try run(seed: 5) == run(seed: 5))
        let differs = try (6..<16).contains { try run(seed: $0) != run(seed: 5) }
        #expect(differs, "the seed drives the random choices")
    }
}
