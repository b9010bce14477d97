import ExtensionSandbox
import Foundation
import RunReport
import ScenarioFiles
import ScreenRendering
import Testing

@testable import DeviceActors
@_spi(Host) import SimulatediOS
import ControlProtocol

/// A run as one HTML report (issue 43, items 1–3): the frames folded from the trace, and the
/// page drawn from them — lanes, the failing step, the shield as the extension drew it, the
/// causal chain's losing write, the keys a step changed — self-contained and the same bytes
/// for the same run.
@Suite struct RunReportTests {
    /// A shipped scenario's failing schedule (the first an exploration finds), replayed.
    private static func failingRun(_ name: String) throws -> (JSONValue, ScenarioOutcome, ExplorationFailure) {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/scenarios/\(name).json").standardizedFileURL
        let document = try JSONWire.decode(JSONValue.self, from: Data(contentsOf: url))
        let scenario = try shippedScenario(name)
        let explored = ScenarioExplorer.explore(
            scenario, plan: ExplorationPlan(strategy: .pct, schedules: 300), build: BuildInfo(version: "test", revision: nil))
        let failure = try #require(explored.failures.first)
        let token = try ScheduleToken.parse(failure.schedule).get()
        let outcome = ScenarioRunner.run(scenario, replaying: .deviations(token.deviations, faults: token.faults))
        return (document, outcome, failure)
    }

    /// The answer `scenario.replay` gives with `report: true`, as far as the page reads it.
    private static func answer(_ document: JSONValue, _ outcome: ScenarioOutcome, _ failure: ExplorationFailure?) throws
        -> JSONValue
    {
        var members: [String: JSONValue] = [
            "passed": .bool(outcome.passed), "failures": try JSONWire.value(outcome.failure.map { [$0] } ?? []),
            "trace": try JSONWire.value(outcome.trace),
            "report": try JSONWire.value(ScenarioReport(of: outcome, labels: ScenarioFile.stepLabels(of: document))),
        ]
        if let failure {
            members["token"] = .string(failure.schedule)
            members["story"] = try JSONWire.value(failure.story)
            members["causalChain"] = try JSONWire.value(failure.causalChain)
        }
        return .object(members)
    }

    private static func page(_ answer: JSONValue, _ name: String) throws -> String {
        try RunReportPage(answer: answer, context: .init(scenario: name, replayCommand: "clarityctl replay \(name).json --schedule T"))
            .html()
    }

    /// The `<section class="frame" …>` of the step at `path`.
    private static func frame(_ path: String, in html: String) -> Substring? {
        guard let start = html.range(of: "data-path=\"\(path)\"", range: html.range(of: "<main")!.upperBound..<html.endIndex)
        else { return nil }
        let end = html.range(of: "</section>", range: start.upperBound..<html.endIndex)!
        return html[start.lowerBound..<end.upperBound]
    }

    @Test func claritysStaleVerificationReportShowsLanesTheFailingStepTheShieldAndTheChain() throws {
        let (document, outcome, failure) = try Self.failingRun("clarity-stale-verification")
        let html = try Self.page(try Self.answer(document, outcome, failure), "clarity-stale-verification")
        for lane in ["steps", "clarity.app", "springBoard", "deviceActivity", "clarity.monitor", "clarity.shieldConfiguration"] {
            #expect(html.contains("class=\"lane\" data-lane=\"\(lane)\""), "lane \(lane)")
        }
        #expect(html.contains("<li class=\"step selected\" data-step=\"14\" data-path=\"steps[10]\" data-failing=\"true\">"))
        // The system's lanes show their instants: SpringBoard drew the shield, DeviceActivity
        // delivered the thresholds.
        func lane(_ name: String) -> Substring {
            let start = html.range(of: "data-lane=\"\(name)\"")!
            let end = html.range(of: "class=\"lane\"", range: start.upperBound..<html.endIndex)?.lowerBound ?? html.endIndex
            return html[start.upperBound..<end]
        }
        #expect(lane("springBoard").contains("class=\"mark shield\""))
        #expect(lane("deviceActivity").contains("class=\"mark delivery\""))
        // The shield's title as Clarity's ShieldConfiguration extension drew it, in the frame
        // of the step that showed it.
        let drawn = try #require(
            outcome.trace.lazy.compactMap { effect -> ShieldConfiguration? in
                guard case .shieldShown(_, let configuration, .extension) = effect.entry.payload else { return nil }
                return configuration
            }.first)
        let shielded = try #require(Self.frame("steps[4]", in: html))
        #expect(Self.shieldTitle(in: String(shielded)) == drawn.title)
        #expect(drawn.title == "Text Mom instead")
        // A step's banners are those it posted: the nudge of the 600 s advance, not again on
        // the next step at the same instant.
        #expect(shielded.contains("data-part=\"banner-title\">Awareness Nudge</text>"))
        let next = try #require(Self.frame("steps[5]", in: html))
        #expect(!next.contains("data-part=\"banner\""), "steps[5] posted no notification")
        // The stale read and the write in the causal chain, and the broken condition.
        #expect(html.contains("<li class=\"link read\""))
        #expect(html.contains("<li class=\"link last-write\""))
        #expect(html.contains("<p class=\"broken\" data-step-path=\"steps[10]\">"))
        #expect(html.contains("challengeVerifiedByTexting"))
        // A step that changed a key has it marked: setImportantContacts wrote the contact.
        let contacts = try #require(Self.frame("steps[1]", in: html))
        #expect(contacts.contains("<tr class=\"changed\" data-suite=\"group.com.clarity.focus\" data-key=\"prosocialContactName\">"))
        #expect(html.contains("<code class=\"replay-command\">clarityctl replay clarity-stale-verification.json --schedule T</code>"))
    }

    @Test func scrollKittysLostUpdateReportHighlightsTheLosingWriteAndShowsTheHPSubtitle() throws {
        let (document, outcome, failure) = try Self.failingRun("scrollkitty-concurrent-bypass")
        let html = try Self.page(try Self.answer(document, outcome, failure), "scrollkitty-concurrent-bypass")
        let losing = try #require(failure.causalChain.first { $0.role == .losingWrite })
        #expect(html.contains("<li class=\"link losing-write\" data-seq=\"\(losing.seq)\">"))
        #expect(html.contains("<li class=\"effect losing-write\" data-seq=\"\(losing.seq)\">"))
        #expect(html.contains("data-failing=\"true\""))
        let opened = try #require(Self.frame("steps[1]", in: html))
        #expect(Self.shieldTitle(in: String(opened)) == "Scroll Kitty is watching")
        #expect(opened.contains("Instagram: 50/50 HP"))
    }

    /// Nothing is fetched: no `src` or `href` leaves the page, the only URL is the SVG namespace.
    @Test func theReportIsSelfContainedAndTheSameRunGivesTheSameBytes() throws {
        let (document, outcome, failure) = try Self.failingRun("clarity-stale-verification")
        let html = try Self.page(try Self.answer(document, outcome, failure), "clarity-stale-verification")
        #expect(html.range(of: #"(src|href)\s*=\s*["']?\s*(https?:)?//"#, options: .regularExpression) == nil)
        let urls = html.ranges(of: /https?:\/\/[^"' )]*/).map { String(html[$0]) }
        #expect(Set(urls) == ["http://www.w3.org/2000/svg"], "\(Set(urls))")
        #expect(html.contains("<script>") && html.contains("document.body.dataset.ready = \"1\""))
        let hostile = try Self.page(try Self.answer(document, outcome, failure), "</script><!--<img src=x onerror=alert(1)>")
        #expect(!hostile.contains("<img") && !hostile.contains("<!--"), "a scenario's name is text, in the page and its data")
        let (_, again, _) = try Self.failingRun("clarity-stale-verification")
        #expect(try Self.page(try Self.answer(document, again, failure), "clarity-stale-verification") == html)
    }

    /// An answer that is JSON but not a report's is refused, saying what is wrong.
    @Test func anAnswerWithoutAReportOrWithAWrongOneIsRefusedSayingWhy() {
        let context = RunReportPage.Context(scenario: "x", replayCommand: nil)
        #expect(throws: RunReportError.self) { try RunReportPage(answer: ["passed": true], context: context) }
        do {
            _ = try RunReportPage(
                answer: ["passed": true, "failures": [], "trace": [], "report": ["steps": 3]], context: context)
            Issue.record("a report whose steps are a number was read")
        } catch {
            #expect(error.reason.hasPrefix("the answer's report cannot be read: "), "\(error.reason)")
            #expect(error.reason.contains("device") || error.reason.contains("steps"), "\(error.reason)")
        }
    }

    /// The fold's screen at the run's end is the device's: ScrollKitty's shield over Instagram,
    /// with the title the extension drew, and the App Group the device holds.
    @Test func theFoldsLastScreenIsWhatTheDeviceShows() throws {
        let scenario = try shippedScenario("scrollkitty-concurrent-bypass")
        let outcome = ScenarioRunner.run(scenario, replaying: .deviations([]))
        let device = try #require(outcome.device)
        var fold = ScreenFold(device: device.screenDevice)
        for effect in outcome.trace { fold.apply(effect.entry) }
        let screen = fold.screen(inputBegan: 0)
        let state = try device.state()
        #expect(screen.locked == state.locked)
        #expect(screen.frontmost?.bundleIdentifier == state.foregroundApp && state.foregroundApp == "com.burbn.instagram")
        #expect((screen.shield != nil) == state.shieldShown && state.shieldShown)
        #expect(screen.t == state.t)
        #expect(screen.shield?.title == "Scroll Kitty is watching")
        #expect(screen.clock == "09:00" && screen.date == "Monday, January 5")
        let store = try device.storeDump(suite: nil)
        #expect(Set(fold.stores.appGroup["group.com.scrollkitty.app"].map { Array($0.keys) } ?? []) == Set(store.keys))
        #expect(screen.home.first?.bundleIdentifier == "com.scrollkitty.app")
        #expect(screen.home.contains { $0.bundleIdentifier == "com.burbn.instagram" && $0.shielded })
    }

    /// One set of rules, two readers: for every shipped scenario (iOS and Android, one app and
    /// several), the screen folded from the run's trace is the live device's `device.screen`
    /// after it, field for field — the report's last frame is what `clarityctl screen` prints.
    /// The shield's title as the drawn screen in `html` reads: its lines (`<tspan>`s) joined.
    private static func shieldTitle(in html: String) -> String? {
        guard let start = html.range(of: "data-part=\"shield-title\">"),
            let end = html.range(of: "</text>", range: start.upperBound..<html.endIndex)
        else { return nil }
        let lines = html[start.upperBound..<end.lowerBound].split(separator: "</tspan>").compactMap { line in
            line.range(of: ">", options: .backwards).map { String(line[$0.upperBound...]) }
        }
        return lines.joined(separator: " ")
    }

    @Test(arguments: [
        "clarity-stale-verification", "clarity-friction-under-faults", "scrollkitty-concurrent-bypass",
        "scrollkitty-double-tap", "scrollkitty-no-notification-auth", "scrollkitty-monitor-reapplies",
        "spendless-flag-race", "makehay-background-gap", "thephone-android-sync-race", "thephone-unlock-only",
    ])
    func theFoldAndTheLiveDeviceShowTheSameScreen(_ name: String) throws {
        let outcome = ScenarioRunner.run(try shippedScenario(name), replaying: .deviations([]))
        let device = try #require(outcome.device)
        var fold = ScreenFold(device: device.screenDevice)
        for effect in outcome.trace { fold.apply(effect.entry) }
        let (folded, live) = (fold.screen(inputBegan: device.lastInputSequence, at: device.now.t), try device.screen())
        #expect(folded == live, "folded \(String(describing: folded)), live \(String(describing: live))")
    }

    /// The fold's rules on a trace of its own: banners by trace order (two inputs at one instant
    /// each show only their own), none while Focus is on; the shield is the last one drawn for the
    /// app in front, the system's when the extension failed; none once the phone is locked.
    @Test func theFoldFollowsTheScreensRules() {
        let device = ScreenDevice(
            name: "d", platform: .ios, apps: [.init(name: "kitty", bundleIdentifier: "com.kitty.app")], catalog: .builtIn,
            start: "2026-01-05T09:00:00Z", timeZone: "America/New_York")
        var fold = ScreenFold(device: device)
        var sequence = 0
        func apply(_ effect: Effect, by actor: String = "springBoard", at t: Double = 60) {
            sequence += 1
            fold.apply(TraceEntry(sequence: sequence, time: VirtualInstant(seconds: t), actor: actor, sandbox: nil, payload: effect))
        }
        let configuration = ShieldConfiguration(title: "Paws off", subtitle: "3 HP", primaryButtonLabel: "OK", secondaryButtonLabel: nil)
        apply(.shieldApply(store: "s", applications: ["com.burbn.instagram"], categories: .none))
        apply(.appState(locked: false, foregroundApp: "com.burbn.instagram", shieldShown: true))
        apply(.shieldShown(app: "com.burbn.instagram", configuration: configuration, source: .extension))
        apply(.notification(title: "first", body: "b"), by: "kitty.monitor")
        let firstInputEnded = sequence
        apply(.notification(title: "second", body: "b"), by: "kitty.monitor")
        var screen = fold.screen(inputBegan: firstInputEnded)
        #expect(screen.banners.map(\.title) == ["second"])
        #expect(screen.banners.first?.app == "com.kitty.app", "the app that posted it, by its catalog name (none here)")
        #expect(fold.screen(inputBegan: 0).banners.map(\.title) == ["second", "first"])
        #expect(screen.shield?.title == "Paws off" && screen.shield?.source == .extension)
        #expect(screen.clock == "04:01" && screen.date == "Monday, January 5", "New York's time")
        #expect(screen.home.first?.bundleIdentifier == "com.kitty.app")
        #expect(screen.home.first { $0.bundleIdentifier == "com.burbn.instagram" }?.shielded == true)
        apply(.focusMode(on: true))
        apply(.notification(title: "silenced", body: "b"))
        apply(.shieldShown(app: "com.burbn.instagram", configuration: .systemDefault(appName: "Instagram"), source: .systemDefault))
        screen = fold.screen(inputBegan: firstInputEnded)
        #expect(screen.banners.map(\.title) == ["second"] && screen.focusMode)
        #expect(screen.shield?.title == "Restricted" && screen.shield?.source == .systemDefault)
        apply(.shieldClear(store: "s"))
        apply(.appState(locked: true, foregroundApp: "com.burbn.instagram", shieldShown: true))
        screen = fold.screen(inputBegan: sequence)
        #expect(screen.locked && screen.frontmost == nil && screen.shield == nil)
        #expect(screen.home.allSatisfy { !$0.shielded })
        #expect(screen.banners.map(\.title) == ["second", "first"], "the lock screen lists all since the last unlock (none yet)")
        apply(.appState(locked: false, foregroundApp: nil, shieldShown: false))
        apply(.focusMode(on: false))
        apply(.notification(title: "third", body: "b"), by: "kitty.monitor")
        apply(.appState(locked: true, foregroundApp: nil, shieldShown: false))
        #expect(fold.screen(inputBegan: sequence).banners.map(\.title) == ["third"], "since the unlock only")
    }

    /// Beyond ``ReportTimeline/limit`` events the timeline draws a window around the failure (the
    /// end for a passing run), and the page says how many were left out.
    @Test func aBigRunIsCutToAWindowAndSaysHowMuchWasLeftOut() throws {
        var steps: [JSONValue] = [["intent": ["name": "selectApps", "args": ["apps": ["com.burbn.instagram"]]]]]
        for _ in 0..<650 {
            steps.append(["event": ["type": "app.open", "app": "com.burbn.instagram"]])
            steps.append(["event": ["type": "app.close", "app": "com.burbn.instagram"]])
        }
        let document: JSONValue = [
            "name": "many-opens", "app": "scrollkitty", "start": "2026-01-05T09:00:00Z", "timezone": "UTC", "seed": 0,
            "steps": .array(steps),
        ]
        let scenario = try ScenarioFile.scenario(from: document, catalog: .builtIn)
        let outcome = ScenarioRunner.run(scenario, strategy: FIFOStrategy(), tracesEveryRead: false)
        let trace = outcome.trace
        #expect(trace.count > ReportTimeline.limit)
        let report = ScenarioReport(of: outcome, labels: [:])
        #expect(report.timeline.omitted == trace.count - ReportTimeline.limit)
        #expect(report.timeline.lastSeq == trace.last?.entry.sequence)
        let html = try Self.page(try Self.answer(document, outcome, nil), "many-opens")
        #expect(html.contains("This run has \(trace.count) trace events: the timeline draws \(ReportTimeline.limit) of them"))
        #expect(html.contains("\(trace.count - ReportTimeline.limit) were left out."))
        #expect(html.contains("<p class=\"left-out\">Left out: this run is cut to the timeline&#39;s window"))
        // The run passed: it is shown from the first step the window holds, and of the steps only
        // 250 from it on are drawn in full; the page says so.
        let first = try #require(report.steps.first { $0.endSeq >= report.timeline.firstSeq })
        #expect(html.contains("This run has 1301 steps: 250 of them (\(first.index)…\(first.index + 249)) are drawn in full"))
        #expect(html.ranges(of: "<figure class=\"screen\">").count == 250)
    }
}
