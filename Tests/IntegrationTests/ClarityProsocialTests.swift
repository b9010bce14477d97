import ControlProtocol
import DaemonTestSupport
import Testing

/// Clarity's prosocial challenges over the socket (docs/apps/clarity.md; seed 000 tasks 2–4).
@Suite struct ClarityProsocialTests {
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
        "You've been a great communicator today. Go ahead 🎉", "3+ real conversations? You're a social butterfly 🦋",
        "You've earned your scroll. Enjoy it guilt-free.",
    ]
    static let skipped = [
        "Okay. But the scroll hits different when you haven't talked to anyone all day.",
        "Skipped for now. We'll ask again later 😏",
    ]

    @Test func layerTwoShieldNamesTheContactAndATextIsVerifiedThroughTheMonitor() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "text")
        try clarity.setUpPeople(["Mom"])
        #expect(try clarity.store("prosocialContactName") == "Mom")

        try clarity.event("app.open", ["app": .string(ClarityDriver.instagram)])
        let atTen = try clarity.advance(600)
        #expect(clarity.effects(atTen, "shield.shown").first?["title"] == "Text Mom instead")
        #expect(try clarity.shields()["stores"]?["prosocialFriction"]?["applications"] == [.string(ClarityDriver.instagram)])

        try clarity.event("app.open", ["app": .string(ClarityDriver.clarity)])
        let challenge = try clarity.app()["challenge"]
        #expect(challenge?["contactName"] == "Mom")
        #expect(challenge?["status"] == "idle")
        #expect(["textSomeone", "replyToMessage"].contains(challenge?["type"]?.stringValue ?? ""))
        let prompts = [
            "Send Mom a quick text", "Tell Mom you're thinking of them", "Check in on Mom — it's been a while",
            "Ask Mom how their day's going",
        ]
        #expect(prompts.contains(challenge?["prompt"]?.stringValue ?? ""))

        let opened = try clarity.intent("challenge.open")
        #expect(clarity.effects(opened, "openURL").first?["url"] == "sms://+15550000")
        #expect(try clarity.state()["foregroundApp"] == .string(ClarityDriver.messages))
        #expect(try clarity.store("pendingProsocialChallengeId") == challenge?["id"])
        #expect(try clarity.store("prosocialChallengeVerified") == false)
        #expect(try clarity.app()["challenge"]?["status"] == "waitingForAction")
        let activities = try daemon.call("activity.list", ["device": "text"]).arrayValue ?? []
        let verification = activities.first { $0["name"] == "prosocial_text_verification" }
        #expect(verification?["events"]?["text_threshold_reached"]?["categories"] == ["communication"])
        #expect(verification?["events"]?["text_threshold_reached"]?["threshold"]?["second"] == 30)
        #expect(verification?["schedule"]?["repeats"] == false)

        let typed = try clarity.advance(30)
        #expect(clarity.effects(typed, "monitor.threshold").first?["event"] == "text_threshold_reached")
        #expect(clarity.effects(typed, "shield.clear").contains { $0["store"] == "prosocialFriction" })
        #expect(try clarity.store("prosocialChallengeVerified") == true)

        try clarity.event("app.open", ["app": .string(ClarityDriver.clarity)])
        let app = try clarity.app()
        #expect(app["challenge"]?["status"] == "verified")
        #expect(app["challenge"]?["verificationMethod"] == "communicationCategory")
        #expect(app["challenge"]?["xpEarned"] == 15)
        #expect(Self.verified.contains(app["challenge"]?["message"]?.stringValue ?? ""))
        #expect(app["xp"] == 15)
        #expect(app["connectionsToday"] == 1)
        #expect(app["importantContacts"]?.arrayValue?.first?["timesConnected"] == 1)
        #expect(try clarity.store("pendingProsocialChallengeId") == .null)
        #expect(app["history"]?["connectionLogs"] == 1)
    }

    private func callChallenge(_ daemon: DaemonProcess, _ name: String) throws -> ClarityDriver {
        let clarity = try ClarityDriver(daemon, device: name)
        try clarity.setUpPeople(["Mom"])
        let challenge = try clarity.challengeAtLayer(4)
        #expect(challenge["type"] == "callSomeone")
        let opened = try clarity.intent("challenge.open")
        #expect(clarity.effects(opened, "openURL").first?["url"] == "tel://+15550000")
        return clarity
    }

    @Test func callOutcomesGiveTheSeedsXPAndMessages() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }

        let completed = try callChallenge(daemon, "completed")
        try completed.event("call.dial", ["handle": "+15550000"])
        try completed.advance(5)
        try completed.event("call.connect")
        try completed.advance(60)
        try completed.event("call.end")
        var app = try completed.app()
        #expect(app["challenge"]?["status"] == "verified")
        #expect(app["challenge"]?["verificationMethod"] == "callObserver")
        #expect(app["xp"] == 25)
        #expect(app["conversationMinutesToday"] == 1.0833333333333333)
        #expect(Self.verified.contains(app["challenge"]?["message"]?.stringValue ?? ""))

        let long = try callChallenge(daemon, "long")
        try long.event("call.dial")
        try long.event("call.connect")
        try long.advance(300)
        try long.event("call.end")
        #expect(try long.app()["xp"] == 50)

        let short = try callChallenge(daemon, "short")
        try short.event("call.dial")
        try short.advance(2)
        try short.event("call.connect")
        try short.advance(8)
        try short.event("call.end")
        app = try short.app()
        #expect(app["challenge"]?["status"] == "failed")
        #expect(app["xp"] == 0)
        #expect(Self.failedCall.contains(app["challenge"]?["message"]?.stringValue ?? ""))

        let unanswered = try callChallenge(daemon, "attempted")
        try unanswered.event("call.dial")
        try unanswered.advance(20)
        try unanswered.event("call.end")
        app = try unanswered.app()
        #expect(app["challenge"]?["status"] == "callAttempted")
        #expect(app["xp"] == 10)
        #expect(app["connectionsToday"] == 0, "callAttempted is not a connection")
        #expect(app["importantContacts"]?.arrayValue?.first?["timesConnected"] == 1)
        #expect(Self.callAttempted.contains(app["challenge"]?["message"]?.stringValue ?? ""))

        let nothing = try callChallenge(daemon, "nothing")
        try nothing.advance(119)
        #expect(try nothing.app()["challenge"]?["status"] == "waitingForAction")
        try nothing.advance(1)
        app = try nothing.app()
        #expect(app["challenge"]?["status"] == "failed")
        #expect(Self.failed.contains(app["challenge"]?["message"]?.stringValue ?? ""))
    }

    @Test func callEventsOutOfOrderAreRefusedAndNothingIsLost() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try callChallenge(daemon, "order")
        #expect(clarity.refusal { try clarity.event("call.connect") } == "noDialingCall")
        #expect(clarity.refusal { try clarity.event("call.end") } == "noCallInProgress")
        try clarity.event("call.dial")
        #expect(clarity.refusal { try clarity.event("call.dial") } == "callInProgress")
        #expect(try clarity.app()["challenge"]?["status"] == "waitingForAction")
        #expect(try clarity.app()["importantContacts"]?.arrayValue?.count == 1)
    }

    @Test func threeConnectionsTodayAutoVerifyTheNextChallenge() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "auto")
        try clarity.setUpPeople(["Mom"])
        _ = try clarity.challengeAtLayer(4)
        for _ in 0..<3 {
            let opened = try clarity.intent("challenge.open")
            #expect(opened["result"]?["status"] == "waitingForAction")
            try clarity.event("call.dial")
            try clarity.event("call.connect")
            try clarity.advance(30)
            try clarity.event("call.end")
        }
        #expect(try clarity.app()["connectionsToday"] == 3)
        let fourth = try clarity.intent("challenge.open")
        #expect(fourth["result"]?["status"] == "autoVerified")
        let app = try clarity.app()
        #expect(app["challenge"]?["verificationMethod"] == "autoVerified")
        #expect(app["challenge"]?["xpEarned"] == 5)
        #expect(app["xp"] == 80)
        #expect(Self.alreadyConnected.contains(app["challenge"]?["message"]?.stringValue ?? ""))
    }

    @Test func attemptedCallsDoNotCountTowardAutoVerification() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "attempts")
        try clarity.setUpPeople(["Mom"])
        _ = try clarity.challengeAtLayer(4)
        for _ in 0..<3 {
            _ = try clarity.intent("challenge.open")
            try clarity.event("call.dial")
            try clarity.event("call.end")
        }
        let fourth = try clarity.intent("challenge.open")
        #expect(fourth["result"]?["status"] == "waitingForAction")
    }

    @Test func challengeTypeFollowsTheLayerAndSkipUsesTheSeedsMessages() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "types")
        try clarity.setUpPeople(["Mom"])
        let two = try clarity.challengeAtLayer(2)
        #expect(["textSomeone", "replyToMessage"].contains(two["type"]?.stringValue ?? ""))
        #expect(two["frictionLayer"] == 2)
        try clarity.intent("challenge.skip")
        let skipped = try clarity.app()["challenge"]
        #expect(skipped?["skipped"] == true)
        #expect(skipped?["status"] == "idle")
        #expect(Self.skipped.contains(skipped?["message"]?.stringValue ?? ""))
        let four = try clarity.challengeAtLayer(4)
        #expect(four["type"] == "callSomeone")
        #expect(four["frictionLayer"] == 4)
        try clarity.setStore("frictionLevel", 3)
        #expect(clarity.refusal { try clarity.intent("challenge.open") } == nil, "the open layer-4 challenge still opens")
    }

    @Test func contactChoicePrefersPeopleNotContactedInSevenDays() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "choice")
        try clarity.setUpPeople(["Mom", "Dad"])
        let first = try clarity.challengeAtLayer(4)
        let firstName = first["contactName"]?.stringValue ?? ""
        _ = try clarity.intent("challenge.open")
        try clarity.event("call.dial")
        try clarity.event("call.connect")
        try clarity.advance(60)
        try clarity.event("call.end")
        let other = firstName == "Mom" ? "Dad" : "Mom"
        #expect(try clarity.store("prosocialContactName") == .string(other))
        let second = try clarity.intent("challenge.open")
        #expect(second["result"]?["contactName"] == .string(other))
    }

    @Test func importantContactsKeepTheSeedsLimitAndComeFromTheAddressBookOrByHand() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "people")
        try clarity.event("contacts.set", ["contacts": [["id": "a", "name": "Ann", "phone": "+1"]]])
        try clarity.intent("setImportantContacts", ["contacts": [["id": "a"], ["name": "Bo", "phone": "+2"]]])
        let people = try clarity.app()["importantContacts"]?.arrayValue ?? []
        #expect(people.map { $0["name"] } == ["Ann", "Bo"])
        #expect(people[1]["id"] == "manual-1")
        let six: [JSONValue] = (0..<6).map { ["name": .string("P\($0)")] }
        do {
            try clarity.intent("setImportantContacts", ["contacts": .array(six)])
            Issue.record("a sixth contact must be refused")
        } catch let error as RPCError {
            #expect(error.code == -32602)
            #expect(error.data?["field"] == "args.contacts")
        }
        do {
            try clarity.intent("setImportantContacts", ["contacts": [["id": "ghost"]]])
            Issue.record("an unknown address-book id must be refused")
        } catch let error as RPCError {
            #expect(error.data?["field"] == "args.contacts[0].id")
        }
        #expect(try clarity.app()["importantContacts"]?.arrayValue?.count == 2, "nothing stored is lost")
    }

    /// docs/protocol.md's shape: a contact given with an id and a name is taken as given, address book
    /// or not; an id alone still comes from the address book.
    @Test func aContactGivenWithIdAndNameIsTakenAsGiven() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "given")
        try clarity.event("contacts.set", ["contacts": [["id": "mom", "name": "Mom", "phone": "+15550100"]]])
        let set = try clarity.intent(
            "setImportantContacts",
            ["contacts": [["id": "sam", "name": "Sam", "phone": "+15550101"], ["id": "mom", "name": "Mum"], ["id": "mom2", "name": "Zoe"]]])
        #expect(set["result"]?["contacts"] == ["Sam", "Mum", "Zoe"])
        let people = try clarity.app()["importantContacts"]?.arrayValue ?? []
        #expect(people.map { $0["id"] } == ["sam", "mom", "mom2"])
        #expect(people.map { $0["phone"] } == ["+15550101", "+15550100", nil], "a phone left out comes from the address book")
    }

    /// A challenge already verified is not skipped (its status and XP stay); a skipped one is
    /// not skipped twice.
    @Test func onlyAnOpenChallengeCanBeSkipped() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try callChallenge(daemon, "skips")
        try clarity.event("call.dial")
        try clarity.event("call.connect")
        try clarity.advance(30)
        try clarity.event("call.end")
        #expect(clarity.refusal { try clarity.intent("challenge.skip") } == "challengeCompleted")
        #expect(clarity.refusal { try clarity.intent("challenge.skip") } == "challengeCompleted", "every time")
        var app = try clarity.app()
        #expect(app["challenge"]?["status"] == "verified" && app["challenge"]?["skipped"] == false)
        #expect(app["xp"] == 25)

        _ = try clarity.intent("challenge.open")
        #expect(clarity.refusal { try clarity.intent("challenge.skip") } == nil, "a fresh challenge skips")
        #expect(clarity.refusal { try clarity.intent("challenge.skip") } == "noChallenge", "but only once")
        app = try clarity.app()
        #expect(app["challenge"]?["skipped"] == true && app["xp"] == 25)
    }

    /// The app's decisions are in the trace (kind `app`, the seed's names): the person picked,
    /// the challenge issued, its verification and the XP it earned.
    @Test func theAppsDecisionsAreTraced() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "told")
        try clarity.setUpPeople(["Mom"])
        try clarity.setStore("frictionLevel", 2)
        let opened = try clarity.event("app.open", ["app": .string(ClarityDriver.clarity)])
        let issued = clarity.effects(opened, "app").first { $0["event"] == "challengeIssued" }
        let challenge = try clarity.app()["challenge"] ?? .null
        #expect(issued?["challengeId"] == challenge["id"])
        #expect(issued?["contactName"] == "Mom" && issued?["frictionLayer"] == 2)
        #expect(issued?["type"] == challenge["type"] && issued?["prompt"] == challenge["prompt"])
        #expect(issued?["actor"] == "clarity.app")

        let open = try clarity.intent("challenge.open")
        #expect(clarity.effects(open, "app").first?["event"] == "verificationStarted")
        try clarity.advance(30)
        let back = try clarity.event("app.open", ["app": .string(ClarityDriver.clarity)])
        let told = clarity.effects(back, "app")
        #expect(told.map { $0["event"] } == ["challengeVerified", "xpAwarded", "contactPicked"], "then the next person")
        let verified = told.first, awarded = told.dropFirst().first
        #expect(verified?["status"] == "verified" && verified?["verificationMethod"] == "communicationCategory")
        #expect(awarded?["xp"] == 15 && awarded?["totalXP"] == 15 && awarded?["challengeId"] == challenge["id"])

        let trace = try daemon.call("trace.get", ["device": "told"]).arrayValue ?? []
        let picked = trace.filter { $0["kind"] == "app" && $0["event"] == "contactPicked" }
        #expect(picked.first?["contactName"] == "Mom" && picked.first?["pick"] == "lostTouch")
    }

    /// While a challenge is open the shields name its person, not the next one's (on every seed:
    /// picking the next person ahead would name someone else on some of them).
    @Test(arguments: 1...6)
    func theShieldNamesTheOpenChallengesPerson(seed: Int) throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let clarity = try ClarityDriver(daemon, device: "named", seed: seed)
        try clarity.setUpPeople(["Mom", "Sam", "Ann"])
        let challenge = try clarity.challengeAtLayer(2)
        let person = challenge["contactName"]?.stringValue ?? ""
        #expect(try clarity.store("prosocialContactName") == .string(person))
        _ = try clarity.intent("challenge.open")
        #expect(try clarity.store("prosocialContactName") == .string(person))
        try clarity.intent("challenge.skip")
        #expect(["Mom", "Sam", "Ann"].contains(try clarity.store("prosocialContactName").stringValue ?? ""))
    }
}
