import Foundation
import Testing

import DeviceTesting

@testable import Clarity
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
            let device = try TestDevice(app: .clarity, seed: seed, exhaustivity: .off)
            let instagram = "com.burbn.instagram"
            try device.send(
                .contactsSet([Contact(id: "m", name: "Mom", phone: "+1"), Contact(id: "d", name: "Dad", phone: "+2")]))
            try device.intent("setImportantContacts", ["contacts": [["id": "m"], ["id": "d"]]])
            try device.intent("selectApps", ["apps": [.string(instagram)]])
            try device.send(.appOpen(app: instagram))
            try device.advance(seconds: 600)
            try device.send(.appOpen(app: "com.clarity.focus"))
            try device.intent("challenge.open")
            try device.advance(seconds: 10)
            try device.send(.appOpen(app: "com.clarity.focus"))
            try device.intent("challenge.skip")
            try device.intent("challenge.open")
            try device.advance(seconds: 45)
            try device.send(.appOpen(app: "com.clarity.focus"))
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            var data = try encoder.encode(device.device.traceEntries(since: nil, limit: nil))
            data.append(try encoder.encode(device.state()))
            return data
        }
        #expect(try run(seed: 5) == run(seed: 5))
        let differs = try (6..<16).contains { try run(seed: $0) != run(seed: 5) }
        #expect(differs, "the seed drives the random choices")
    }
}
