import JSONValues

/// A run as one self-contained HTML page (docs/report.md): inline CSS and script only, nothing
/// fetched, the run's data embedded. Drawn from a `scenario.run` / `scenario.replay` answer with
/// `report: true`: a header (scenario, device, result, replay token and command), the failure
/// (what broke, the story, the causal chain with the losing write), the timeline with one lane
/// per process, the list of steps, and for each step its frame: the screen, the App Group and
/// shields before and after with what changed, the effects.
///
/// Every part is static HTML (a browser's `--dump-dom` sees it before the script runs); the
/// script only moves between steps (click, ←/→, j/k; the step in the URL hash). The same answer
/// gives the same bytes.
public struct RunReportPage {
    /// Where the run came from, as the header says it.
    public struct Context: Sendable {
        public var scenario: String
        /// `clarityctl replay FILE --schedule TOKEN`, for a failure.
        public var replayCommand: String?

        public init(scenario: String, replayCommand: String?) {
            self.scenario = scenario
            self.replayCommand = replayCommand
        }
    }

    /// The most effects listed under one step; the rest are counted.
    static let effectsPerStep = 400
    /// The most frames drawn in full (screen, stores, effects): those of the steps around the
    /// one shown first. Each is some kilobytes of SVG and tables; a page of a few hundred opens
    /// at once, one of thousands does not.
    static let framesDrawn = 250

    let answer: RunAnswer
    let context: Context
    /// The trace's events by sequence.
    let events: [Int: JSONValue]
    /// The causal chain's links by sequence.
    let links: [Int: RunAnswer.Link]

    /// Reads `answer`; throws ``RunReportError`` naming what is missing (an answer without
    /// `report`: the daemon was not asked, or is older than `report: true`).
    public init(answer: JSONValue, context: Context) throws(RunReportError) {
        guard answer["report"] != nil else {
            throw RunReportError(reason: "the answer has no report (ask scenario.run or scenario.replay with report: true)")
        }
        do {
            self.answer = try JSONValueDecoder(unknownMembers: .ignore).decode(RunAnswer.self, from: answer)
        } catch {
            throw RunReportError(reason: "the answer's report cannot be read: \(error)")
        }
        self.context = context
        var events: [Int: JSONValue] = [:]
        for event in self.answer.trace {
            if let seq = event["seq"]?.intValue { events[seq] = event }
        }
        self.events = events
        links = Dictionary((self.answer.causalChain ?? []).map { ($0.seq, $0) }) { first, _ in first }
    }

    /// The step shown first: the failing one, else the first the timeline's window holds (the
    /// window of a cut run is around the failure, or at the end of a run that passed).
    var initialStep: Int {
        let steps = answer.report.steps
        let timeline = answer.report.timeline
        return steps.first(where: \.failing)?.index
            ?? steps.first { timeline.omitted == 0 || $0.endSeq >= timeline.firstSeq }?.index ?? 0
    }

    /// The indexes of the frames drawn in full: ``framesDrawn`` of them around the failing step,
    /// or from the first step shown on.
    var drawnFrames: ClosedRange<Int> {
        let count = answer.report.steps.count
        let failed = answer.report.steps.contains(where: \.failing)
        let first = max(0, min(initialStep - (failed ? Self.framesDrawn / 2 : 0), count - Self.framesDrawn))
        return first...max(first, min(count, first + Self.framesDrawn) - 1)
    }

    /// The page.
    public func html() -> String {
        var page = HTMLText()
        page.raw("<!DOCTYPE html>\n")
        page.element("html", ["lang": "en"]) { page in
            page.element("head") { head in
                head.raw("<meta charset=\"utf-8\">")
                head.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                head.element("title", text: "\(context.scenario) — \(answer.passed ? "passed" : "failed")")
                head.element("style") { $0.raw(ReportAssets.style) }
            }
            page.element("body", ["data-selected": "\(initialStep)", "data-result": answer.passed ? "passed" : "failed"]) {
                body in
                header(&body)
                failure(&body)
                timeline(&body)
                body.element("div", ["class": "columns"]) { columns in
                    stepList(&columns)
                    columns.element("main", ["id": "frames"]) { main in
                        for frame in answer.report.steps { self.frame(frame, &main) }
                    }
                }
                data(&body)
                body.element("script") { $0.raw(ReportAssets.script) }
            }
        }
        return page.text + "\n"
    }

    private func header(_ page: inout HTMLText) {
        let device = answer.report.device
        page.element("header") { header in
            header.element("h1", text: context.scenario)
            header.element("p", ["class": answer.passed ? "result passed" : "result failed"], text: answer.passed ? "PASSED" : "FAILED")
            header.element("dl") { list in
                list.element("dt", text: "device")
                list.element(
                    "dd",
                    text: "\(device.name) (\(device.platform), \(device.timeZone)): "
                        + device.apps.map { "\($0.name) \($0.bundleIdentifier)" }.joined(separator: ", "))
                list.element("dt", text: "steps")
                list.element("dd", text: "\(answer.report.steps.count), \(answer.trace.count) trace events")
                if let token = answer.token, !answer.passed {
                    list.element("dt", text: "token")
                    list.element("dd") { $0.element("code", ["class": "token"], text: token) }
                }
                if let command = context.replayCommand, !answer.passed {
                    list.element("dt", text: "replay")
                    list.element("dd") { $0.element("code", ["class": "replay-command"], text: command) }
                }
            }
        }
    }

    private func failure(_ page: inout HTMLText) {
        guard let failure = answer.failures.first else { return }
        page.element("section", ["id": "failure", "class": "failure"]) { section in
            section.element("h2", text: "Failure")
            let at = [failure.step.map { "at \($0)" }, failure.invariant.map { "invariant \($0)" }].compactMap { $0 }
            section.element("p", ["class": "broken", "data-step-path": failure.step]) { text in
                if !at.isEmpty { text.element("span", ["class": "where"], text: at.joined(separator: ", ") + ": ") }
                text.text(failure.message)
            }
            if let chain = answer.causalChain, !chain.isEmpty {
                section.element("h3", text: "Causal chain")
                section.element("ol", ["class": "chain"]) { list in
                    for link in chain {
                        let shown = link.value.map { " = \($0)" } ?? ""
                        list.element("li", ["class": "link \(link.roleClass)", "data-seq": "\(link.seq)"]) { item in
                            item.element("span", ["class": "role"], text: link.role)
                            item.text(" \(link.actor) \(link.op) \(link.key)\(shown) (seq \(link.seq))")
                        }
                    }
                }
            }
            if let story = answer.story, !story.isEmpty {
                section.element("h3", text: "Story")
                section.element("ol", ["class": "story"]) { list in
                    for line in story { list.element("li", text: line) }
                }
            }
        }
    }

    private func stepList(_ page: inout HTMLText) {
        page.element("nav", ["id": "steps"]) { nav in
            nav.element("h2", text: "Steps")
            nav.element("ol") { list in
                for frame in answer.report.steps {
                    let classes = ["step", frame.path.contains(".parallel[") ? "branch" : nil, frame.index == initialStep ? "selected" : nil]
                    list.element(
                        "li",
                        [
                            "class": classes.compactMap { $0 }.joined(separator: " "), "data-step": "\(frame.index)",
                            "data-path": frame.path, "data-failing": frame.failing ? "true" : nil,
                        ]
                    ) { item in
                        item.element("a", ["href": "#step-\(frame.index)"]) { link in
                            link.element("span", ["class": "path"], text: frame.path)
                            link.text(" ")
                            link.element("span", ["class": "label"], text: frame.label)
                        }
                    }
                }
            }
        }
    }

    /// The run's data, for whoever reads the page's source: the answer's failure and report
    /// without the screens (drawn above), as JSON with every `<` written `\u003c`, so that nothing in it
    /// can end the script element or open a comment in it.
    private func data(_ page: inout HTMLText) {
        var members: [String: JSONValue] = ["passed": .bool(answer.passed), "scenario": .string(context.scenario)]
        members["token"] = answer.token.map(JSONValue.string)
        members["steps"] = .array(
            answer.report.steps.map {
                [
                    "index": .int($0.index), "path": .string($0.path), "label": .string($0.label), "startSeq": .int($0.startSeq),
                    "endSeq": .int($0.endSeq), "failing": .bool($0.failing),
                ]
            })
        let json = (try? JSONWire.encodeString(JSONValue.object(members))) ?? "{}"
        page.element("script", ["type": "application/json", "id": "run-data"]) {
            $0.raw(json.replacingOccurrences(of: "<", with: "\\u003c"))
        }
    }
}

/// Why a page could not be made of an answer.
public struct RunReportError: Error, Sendable, CustomStringConvertible {
    public let reason: String

    public var description: String { reason }
}
