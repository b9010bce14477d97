import DeviceTesting
import ExtensionSandbox
import Foundation
import SimulatediOS
import Testing

@testable import Clarity

/// Clarity's prosocial challenges (docs/apps/clarity.md; seed 000 tasks 2–4), in process.
@Suite struct ClarityProsocialTests {
    private let group = ClarityKeys.appGroup
    private let instagram = BundleID.instagram

    // Clarity's voice, as seed 000 task 3a writes it (`ProsocialResponses`).
    static let verified = [
        "Nice! Connection made 💛", "That's what your phone is actually for ✨", "Real humans > reels",
        "See? That felt better than scrolling", "Your mom says hi back (probably) 💛",
        "5 minutes with a real person beats 5 hours of scrolling",
    ]
    static let failed = [
        "...nice try 😏", "That was suspiciously fast. Say more than 'hey'?", "We're watching 👀 Actually do it!",
        "Your phone literally told us you didn't", "C'mon, they'd love to hear from you. For real this time.",
    ]
    static let failedCall = [
        "That wasn't long enough to be a real call 📞", "Ring ring... hang up? That doesn't count 😄",
        "Try letting it ring more than once",
    ]
    static let callAttempted = [
        "They didn't pick up, but you tried! That counts ✅", "Voicemail counts — leave them something nice 🎙️",
    ]
    static let alreadyConnected = [
        "You've been a great communicator today. Go ahead 🎉",
        "3+ real conversations? You're a social butterfly 🦋", "You've earned your scroll. Enjoy it guilt-free.",
    ]
    static let skipped = [
        "Okay. But the scroll hits different when you haven't talked to anyone all day.",
        "Skipped for now. We'll ask again later 😏",
    ]

    /// `challengeVerified` then, with XP, `xpAwarded` (docs/apps/clarity.md, `app` effects).
    private func verified(
        _ challengeID: String, status: String = "verified", method: String, xp: Int, totalXP: Int
    ) -> [Effect] {
        [
            .app(
                event: "challengeVerified",
                fields: [
                    "challengeId": .string(challengeID), "status": .string(status),
                    "verificationMethod": .string(method), "xpEarned": .int(xp),
                ]),
            .app(
                event: "xpAwarded",
                fields: [
                    "xp": .int(xp), "totalXP": .int(totalXP), "challengeId": .string(challengeID),
                    "verificationMethod": .string(method),
                ]),
        ]
    }

    /// `verificationStarted`: the deep link was opened and verification started `by` the seed's
    /// `startTextVerification` or `watchForCall`.
    private func verificationStarted(_ challengeID: String, by: String) -> Effect {
        .app(event: "verificationStarted", fields: ["challengeId": .string(challengeID), "by": .string(by)])
    }

    /// A call challenge opened: the call watch started and Phone opened, dialling Mom.
    private func phoneOpened(for challengeID: String) -> [Effect] {
        [
            verificationStarted(challengeID, by: "watchForCall"), .openURL(url: "tel://+15550000"),
            .appState(locked: false, foregroundApp: "com.apple.mobilephone", shieldShown: false),
        ]
    }

    /// `challengeFailed`: a call did not count (`result` is the seed's `CallResult`).
    private func failed(_ challengeID: String, result: String) -> Effect {
        .app(event: "challengeFailed", fields: ["challengeId": .string(challengeID), "result": .string(result)])
    }

    /// `challengeIssued` for the device's current challenge, with what `app.challenge` shows of it.
    private func issued(on device: TestDevice) throws -> Effect {
        let challenge = try device.appState()["challenge"]
        var fields: [String: StoredValue] = [
            "challengeId": .string(try device.challengeID()),
            "type": .string(try #require(challenge?["type"]?.stringValue)),
            "frictionLayer": .int(try #require(challenge?["frictionLayer"]?.intValue)),
        ]
        fields["contactName"] = challenge?["contactName"]?.stringValue.map(StoredValue.string)
        fields["prompt"] = challenge?["prompt"]?.stringValue.map(StoredValue.string)
        return .app(event: "challengeIssued", fields: fields)
    }

    /// `contactPicked`: the person the next challenge suggests, by which of the seed's priorities.
    private func picked(_ name: String, pick: String) -> Effect {
        .app(
            event: "contactPicked",
            fields: ["contactName": .string(name), "contactId": .string(name.lowercased()), "pick": .string(pick)])
    }

    /// Opens Clarity at a prosocial layer, which issues that layer's challenge (its `app` effects
    /// carry a fresh id, so the test reads them from the trace); the challenge's id.
    private func openClarityIssuingAChallenge(_ device: TestDevice) throws -> String {
        try device.withExhaustivity(.kinds(["app.state"])) {
            try device.send(
                .appOpen(app: ClarityKeys.bundleIdentifier),
                effects: [.appState(locked: false, foregroundApp: ClarityKeys.bundleIdentifier, shieldShown: false)])
        }
        return try device.challengeID()
    }

    /// Writes the day's friction layer as the monitor would (the only effect: that write).
    private func setFrictionLevel(_ layer: Int, on device: TestDevice) throws {
        try device.setValue(
            .int(layer), forKey: "frictionLevel",
            effects: [.storeWrite(suite: group, key: "frictionLevel", value: .int(layer))])
    }

    /// The app's decisions (`app` effects) traced so far, oldest first, each with its process.
    private func decisions(_ device: TestDevice) -> [TraceEntry<Effect>] {
        device.device.traceEntries(since: nil, limit: nil, kinds: ["app"]).map(\.entry)
    }

    @Test func layerTwoShieldNamesTheContactAndATextIsVerifiedThroughTheMonitor() throws {
        let device = try TestDevice.clarity()
        try device.setUpPeople(["Mom"])
        #expect(try device.value(forKey: "prosocialContactName") == .string("Mom"))

        try device.send(
            .appOpen(app: instagram), effects: [.appState(locked: false, foregroundApp: instagram, shieldShown: false)])
        try device.advance(
            minutes: 5,
            effects: awarenessNudge(body: "You've been on Instagram for 5 minutes. Mom would love to hear from you."))
        try device.advance(
            minutes: 5,
            effects: frictionLayer(
                2, store: "prosocialFriction", app: instagram,
                shield: frictionShield(title: "Text Mom instead", subtitle: "A real connection beats any feed")))
        #expect(try device.shields().stores["prosocialFriction"]?.applications == [instagram])

        let id = try openClarityIssuingAChallenge(device)
        let challenge = try device.appState()["challenge"]
        #expect(challenge?["contactName"] == "Mom")
        #expect(challenge?["status"] == "idle")
        #expect(["textSomeone", "replyToMessage"].contains(challenge?["type"]?.stringValue ?? ""))
        let prompts = [
            "Send Mom a quick text", "Tell Mom you're thinking of them", "Check in on Mom — it's been a while",
            "Ask Mom how their day's going",
        ]
        #expect(prompts.contains(challenge?["prompt"]?.stringValue ?? ""))

        try device.intent(
            "challenge.open",
            effects: [
                verificationStarted(id, by: "startTextVerification"),
                .openURL(url: "sms://+15550000"),
                .appState(locked: false, foregroundApp: BundleID.messages, shieldShown: false),
                .storeWrite(suite: group, key: "pendingProsocialChallengeId", value: .string(id)),
                .storeWrite(suite: group, key: "prosocialChallengeVerified", value: .bool(false)),
                .activityStart(activity: "prosocial_text_verification"),
                .monitorIntervalStart(activity: "prosocial_text_verification"),
            ])
        #expect(try device.state().foregroundApp == BundleID.messages)
        #expect(try device.value(forKey: "pendingProsocialChallengeId") == .string(id))
        #expect(try device.value(forKey: "prosocialChallengeVerified") == .bool(false))
        #expect(try device.appState()["challenge"]?["status"] == "waitingForAction")
        let verification = try #require(try device.activities().first { $0.name == "prosocial_text_verification" })
        #expect(verification.events["text_threshold_reached"]?.categories == ["communication"])
        #expect(verification.events["text_threshold_reached"]?.threshold == DateComponentsSpec(second: 30))
        #expect(verification.schedule.repeats == false)

        try device.advance(seconds: 29)
        try device.advance(
            seconds: 1,
            effects: [
                .monitorThreshold(activity: "prosocial_text_verification", event: "text_threshold_reached"),
                .storeWrite(suite: group, key: "prosocialChallengeVerified", value: .bool(true)),
                .shieldClear(store: "prosocialFriction"),
            ])
        #expect(try device.value(forKey: "prosocialChallengeVerified") == .bool(true))

        try device.send(
            .appOpen(app: ClarityKeys.bundleIdentifier),
            effects: [.appState(locked: false, foregroundApp: ClarityKeys.bundleIdentifier, shieldShown: false)]
                + verified(id, method: "communicationCategory", xp: 15, totalXP: 15) + [
                    .activityStop(activity: "prosocial_text_verification"),
                    .monitorIntervalEnd(activity: "prosocial_text_verification"),
                    .storeRemove(suite: group, key: "pendingProsocialChallengeId"),
                    picked("Mom", pick: "random"),
                ])
        let app = try device.appState()
        #expect(app["challenge"]?["status"] == "verified")
        #expect(app["challenge"]?["verificationMethod"] == "communicationCategory")
        #expect(app["challenge"]?["xpEarned"] == 15)
        #expect(Self.verified.contains(app["challenge"]?["message"]?.stringValue ?? ""))
        #expect(app["xp"] == 15)
        #expect(app["connectionsToday"] == 1)
        #expect(app["importantContacts"]?.arrayValue?.first?["timesConnected"] == 1)
        #expect(try device.value(forKey: "pendingProsocialChallengeId") == nil)
        #expect(app["history"]?["connectionLogs"] == 1)
    }

    /// Setup: Mom important, the day at layer 4, its call challenge opened (Phone, to Mom).
    private func callChallenge() throws -> (TestDevice, challengeID: String) {
        let device = try TestDevice.clarity()
        try device.setUpPeople(["Mom"])
        let challenge = try device.challengeAtLayer(4)
        #expect(try device.appState()["challenge"]?["type"] == "callSomeone")
        try device.intent("challenge.open", effects: phoneOpened(for: challenge))
        return (device, challenge)
    }

    @Test func callOutcomesGiveTheSeedsXPAndMessages() throws {
        let (completed, challenge) = try callChallenge()
        try completed.placeCall(to: "+15550000", ringing: 5, talking: 60)
        try completed.send(
            .callEnd(handle: nil),
            effects: verified(challenge, method: "callObserver", xp: 25, totalXP: 25) + [picked("Mom", pick: "random")])
        var app = try completed.appState()
        #expect(app["challenge"]?["status"] == "verified")
        #expect(app["challenge"]?["verificationMethod"] == "callObserver")
        #expect(app["xp"] == 25)
        #expect(app["conversationMinutesToday"] == 1.0833333333333333)
        #expect(Self.verified.contains(app["challenge"]?["message"]?.stringValue ?? ""))

        let (long, _) = try callChallenge()
        try long.placeCall(talking: 300)
        try long.withExhaustivity(.off) { try long.send(.callEnd(handle: nil)) }
        #expect(try long.appState()["xp"] == 50)

        let (short, shortChallenge) = try callChallenge()
        try short.placeCall(ringing: 2, talking: 8)
        try short.send(.callEnd(handle: nil), effects: [failed(shortChallenge, result: "tooShort")])
        app = try short.appState()
        #expect(app["challenge"]?["status"] == "failed")
        #expect(app["xp"] == 0)
        #expect(Self.failedCall.contains(app["challenge"]?["message"]?.stringValue ?? ""))

        let (unanswered, attempt) = try callChallenge()
        try unanswered.placeCall(ringing: 20, talking: nil)
        try unanswered.send(
            .callEnd(handle: nil),
            effects: verified(attempt, status: "callAttempted", method: "callObserver", xp: 10, totalXP: 10) + [
                picked("Mom", pick: "random")
            ])
        app = try unanswered.appState()
        #expect(app["challenge"]?["status"] == "callAttempted")
        #expect(app["xp"] == 10)
        #expect(app["connectionsToday"] == 0, "callAttempted is not a connection")
        #expect(app["importantContacts"]?.arrayValue?.first?["timesConnected"] == 1)
        #expect(Self.callAttempted.contains(app["challenge"]?["message"]?.stringValue ?? ""))

        let (nothing, noCall) = try callChallenge()
        try nothing.advance(seconds: 119)
        #expect(try nothing.appState()["challenge"]?["status"] == "waitingForAction")
        try nothing.advance(seconds: 1, effects: [failed(noCall, result: "noCallDetected")])
        app = try nothing.appState()
        #expect(app["challenge"]?["status"] == "failed")
        #expect(Self.failed.contains(app["challenge"]?["message"]?.stringValue ?? ""))
    }

    @Test func callEventsOutOfOrderAreRefusedAndNothingIsLost() throws {
        let (device, _) = try callChallenge()
        #expect(try refusal { try device.send(.callConnect(handle: nil)) } == "noDialingCall")
        #expect(try refusal { try device.send(.callEnd(handle: nil)) } == "noCallInProgress")
        try device.send(.callDial(handle: nil), effects: [])
        #expect(try refusal { try device.send(.callDial(handle: nil)) } == "callInProgress")
        #expect(try device.appState()["challenge"]?["status"] == "waitingForAction")
        #expect(try device.appState()["importantContacts"]?.arrayValue?.count == 1)
    }

    /// Setup: Mom important, the day at layer 4, and three of its call challenges, each opened
    /// and called: connected for `talking` seconds, or not answered when nil.
    private func threeCalls(talking: Double?) throws -> TestDevice {
        let device = try TestDevice.clarity()
        try device.setUpPeople(["Mom"])
        try device.challengeAtLayer(4)
        for _ in 0..<3 {
            let opened = try device.withExhaustivity(.off) { try device.intent("challenge.open") }
            #expect(opened["status"] == "waitingForAction")
            try device.placeCall(talking: talking)
            try device.withExhaustivity(.off) { try device.send(.callEnd(handle: nil)) }
        }
        return device
    }

    @Test func threeConnectionsTodayAutoVerifyTheNextChallenge() throws {
        let device = try threeCalls(talking: 30)
        #expect(try device.appState()["connectionsToday"] == 3)
        // A fresh challenge passes at once: no deep link, no app opened.
        let fourth = try device.withExhaustivity(.kinds(["openURL", "app.state"])) {
            try device.intent("challenge.open", effects: [])
        }
        #expect(fourth["status"] == "autoVerified")
        let app = try device.appState()
        #expect(app["challenge"]?["verificationMethod"] == "autoVerified")
        #expect(app["challenge"]?["xpEarned"] == 5)
        #expect(app["xp"] == 80)
        #expect(Self.alreadyConnected.contains(app["challenge"]?["message"]?.stringValue ?? ""))
        let id = try device.challengeID()
        #expect(
            try decisions(device).suffix(4).map(\.payload)
                == [issued(on: device)]
                + verified(id, status: "autoVerified", method: "autoVerified", xp: 5, totalXP: 80)
                + [picked("Mom", pick: "random")])
    }

    @Test func attemptedCallsDoNotCountTowardAutoVerification() throws {
        let device = try threeCalls(talking: nil)
        let fourth = try device.withExhaustivity(.kinds(["openURL"])) {
            try device.intent("challenge.open", effects: [.openURL(url: "tel://+15550000")])
        }
        #expect(fourth["status"] == "waitingForAction")
    }

    @Test func challengeTypeFollowsTheLayerAndSkipUsesTheSeedsMessages() throws {
        let device = try TestDevice.clarity()
        try device.setUpPeople(["Mom"])
        let two = try device.challengeAtLayer(2)
        let challenge = try device.appState()["challenge"]
        #expect(["textSomeone", "replyToMessage"].contains(challenge?["type"]?.stringValue ?? ""))
        #expect(challenge?["frictionLayer"] == 2)
        try device.intent(
            "challenge.skip",
            effects: [
                .app(event: "challengeSkipped", fields: ["challengeId": .string(two)]),
                .storeRemove(suite: group, key: "pendingProsocialChallengeId"),
                picked("Mom", pick: "lostTouch"),
            ])
        let skipped = try device.appState()["challenge"]
        #expect(skipped?["skipped"] == true)
        #expect(skipped?["status"] == "idle")
        #expect(Self.skipped.contains(skipped?["message"]?.stringValue ?? ""))
        let four = try device.challengeAtLayer(4)
        #expect(try device.appState()["challenge"]?["type"] == "callSomeone")
        #expect(try device.appState()["challenge"]?["frictionLayer"] == 4)
        try setFrictionLevel(3, on: device)
        try device.intent("challenge.open", effects: phoneOpened(for: four))
        let status = try device.appState()["challenge"]?["status"]
        #expect(status == "waitingForAction", "the open layer-4 challenge still opens")
    }

    @Test func contactChoicePrefersPeopleNotContactedInSevenDays() throws {
        let device = try TestDevice.clarity()
        try device.setUpPeople(["Mom", "Dad"])
        try device.challengeAtLayer(4)
        let other = try device.appState()["challenge"]?["contactName"] == "Mom" ? "Dad" : "Mom"
        try device.withExhaustivity(.off) { try device.intent("challenge.open") }
        try device.placeCall(talking: 60)
        try device.withExhaustivity(.kinds(["store.write"])) {
            try device.send(
                .callEnd(handle: nil),
                effects: [.storeWrite(suite: group, key: "prosocialContactName", value: .string(other))])
        }
        #expect(try device.value(forKey: "prosocialContactName") == .string(other))
        let second = try device.withExhaustivity(.off) { try device.intent("challenge.open") }
        #expect(second["contactName"] == .string(other))
    }

    @Test func importantContactsKeepTheSeedsLimitAndComeFromTheAddressBookOrByHand() throws {
        let device = try TestDevice.clarity()
        try device.send(.contactsSet([Contact(id: "a", name: "Ann", phone: "+1")]), effects: [])
        try device.intent(
            "setImportantContacts", ["contacts": [["id": "a"], ["name": "Bo", "phone": "+2"]]],
            effects: [
                .storeWrite(suite: group, key: "prosocialEnabled", value: .bool(true)),
                .app(
                    event: "contactPicked",
                    fields: ["contactName": .string("Ann"), "contactId": .string("a"), "pick": .string("lostTouch")]),
                .storeWrite(suite: group, key: "prosocialContactName", value: .string("Ann")),
            ])
        let people = try device.appState()["importantContacts"]?.arrayValue ?? []
        #expect(people.map { $0["name"] } == ["Ann", "Bo"])
        #expect(people.last?["id"] == "manual-1")
        #expect(
            try invalidField {
                try device.intent(
                    "setImportantContacts", ["contacts": .array((0..<6).map { ["name": .string("P\($0)")] })])
            } == "args.contacts")
        #expect(
            try invalidField { try device.intent("setImportantContacts", ["contacts": [["id": "ghost"]]]) }
                == "args.contacts[0].id")
        #expect(try device.appState()["importantContacts"]?.arrayValue?.count == 2, "nothing stored is lost")
    }

    /// docs/protocol.md's shape: a contact given with an id and a name is taken as given, address book
    /// or not; an id alone still comes from the address book.
    @Test func aContactGivenWithIdAndNameIsTakenAsGiven() throws {
        let device = try TestDevice.clarity()
        try device.send(.contactsSet([Contact(id: "mom", name: "Mom", phone: "+15550100")]), effects: [])
        let set = try device.withExhaustivity(.off) {
            try device.intent(
                "setImportantContacts",
                [
                    "contacts": [
                        ["id": "sam", "name": "Sam", "phone": "+15550101"], ["id": "mom", "name": "Mum"],
                        ["id": "mom2", "name": "Zoe"],
                    ]
                ])
        }
        #expect(set == ["contacts": ["Sam", "Mum", "Zoe"]])
        let people = try device.appState()["importantContacts"]?.arrayValue ?? []
        #expect(people.map { $0["id"] } == ["sam", "mom", "mom2"])
        let phones = people.map { $0["phone"] }
        #expect(phones == ["+15550101", "+15550100", nil], "a phone left out comes from the address book")
    }

    /// A challenge already verified is not skipped (its status and XP stay); a skipped one is
    /// not skipped twice.
    @Test func onlyAnOpenChallengeCanBeSkipped() throws {
        let (device, _) = try callChallenge()
        try device.placeCall(talking: 30)
        try device.withExhaustivity(.off) { try device.send(.callEnd(handle: nil)) }
        #expect(try refusal { try device.intent("challenge.skip") } == "challengeCompleted")
        #expect(try refusal { try device.intent("challenge.skip") } == "challengeCompleted", "every time")
        var app = try device.appState()
        #expect(app["challenge"]?["status"] == "verified" && app["challenge"]?["skipped"] == false)
        #expect(app["xp"] == 25)

        try device.withExhaustivity(.off) { try device.intent("challenge.open") }
        let fresh = try device.challengeID()
        try device.withExhaustivity(.kinds(["app"])) {
            try device.intent(
                "challenge.skip",
                effects: [
                    .app(event: "challengeSkipped", fields: ["challengeId": .string(fresh)]),
                    picked("Mom", pick: "random"),
                ])
        }
        #expect(try refusal { try device.intent("challenge.skip") } == "noChallenge", "but only once")
        app = try device.appState()
        #expect(app["challenge"]?["skipped"] == true && app["xp"] == 25)
    }

    /// The app's decisions are in the trace (kind `app`, the seed's names): the person picked,
    /// the challenge issued, its verification and the XP it earned.
    @Test func theAppsDecisionsAreTraced() throws {
        let device = try TestDevice.clarity()
        try device.setUpPeople(["Mom"])
        try setFrictionLevel(2, on: device)
        let id = try openClarityIssuingAChallenge(device)
        let challenge = try device.appState()["challenge"]
        let issued = try #require(decisions(device).last)
        #expect(challenge?["contactName"] == "Mom" && challenge?["frictionLayer"] == 2)
        #expect(issued.payload == (try self.issued(on: device)))
        #expect(issued.actor == "clarity.app")

        try device.withExhaustivity(.kinds(["app"])) {
            try device.intent(
                "challenge.open",
                effects: [verificationStarted(id, by: "startTextVerification")])
        }
        try device.withExhaustivity(.off) { try device.advance(seconds: 30) }
        try device.withExhaustivity(.kinds(["app"])) {
            try device.send(
                .appOpen(app: ClarityKeys.bundleIdentifier),
                effects: verified(id, method: "communicationCategory", xp: 15, totalXP: 15)
                    + [picked("Mom", pick: "random")])
        }

        let picks = decisions(device).filter {
            guard case .app(let event, _) = $0.payload else { return false }
            return event == "contactPicked"
        }
        #expect(picks.first?.payload == picked("Mom", pick: "lostTouch"))
    }

    /// While a challenge is open the shields name its person, not the next one's (on every seed:
    /// picking the next person ahead would name someone else on some of them).
    @Test(arguments: 1...6)
    func theShieldNamesTheOpenChallengesPerson(seed: UInt64) throws {
        let device = try TestDevice.clarity(seed: seed)
        try device.setUpPeople(["Mom", "Sam", "Ann"])
        let challenge = try device.challengeAtLayer(2)
        let person = try #require(try device.appState()["challenge"]?["contactName"]?.stringValue)
        #expect(try device.value(forKey: "prosocialContactName") == .string(person))
        try device.withExhaustivity(.kinds(["store.write"])) {
            try device.intent(
                "challenge.open",
                effects: [
                    .storeWrite(suite: group, key: "pendingProsocialChallengeId", value: .string(challenge)),
                    .storeWrite(suite: group, key: "prosocialChallengeVerified", value: .bool(false)),
                ])
        }
        #expect(try device.value(forKey: "prosocialContactName") == .string(person))
        try device.withExhaustivity(.off) { try device.intent("challenge.skip") }
        guard case .string(let next)? = try device.value(forKey: "prosocialContactName") else {
            Issue.record("no name on the shields after the skip")
            return
        }
        #expect(["Mom", "Sam", "Ann"].contains(next))
    }
}
