import JSONValues

/// One step's frame: the screen at its end, the App Group and shields before and after (a
/// changed key or store has class `changed`), the effects (those of the causal chain have their
/// role's class: `losing-write`, `read`, `last-write`).
extension RunReportPage {
    func frame(_ frame: RunAnswer.Frame, _ page: inout HTMLText) {
        page.element(
            "section",
            [
                "class": "frame", "id": "frame-\(frame.index)", "data-frame": "\(frame.index)", "data-path": frame.path,
                "data-failing": frame.failing ? "true" : nil, "hidden": frame.index == initialStep ? nil : "",
            ]
        ) { section in
            section.element("h2") { title in
                title.element("span", ["class": "path"], text: frame.path)
                title.text(" \(frame.label)")
            }
            section.element(
                "p", ["class": "meta"], text: "t = \(Self.number(frame.t)) s · seq \(frame.startSeq + 1)…\(frame.endSeq)")
            if let reason = leftOut(frame) {
                return section.element("p", ["class": "left-out"], text: "Left out: \(reason); replay the run to see this step.")
            }
            section.element("div", ["class": "frame-body"]) { body in
                body.element("figure", ["class": "screen"]) { $0.raw(frame.screen.svg()) }
                body.element("div", ["class": "state"]) { state in
                    appGroup(frame, &state)
                    shields(frame, &state)
                    effects(frame, &state)
                }
            }
        }
    }

    /// Why the frame is not drawn in full, or nil when it is: the run was cut to the timeline's
    /// window (``ReportTimeline``'s limit) and the step lies outside it, or the run has more steps
    /// than ``RunReportPage/framesDrawn`` and this one is not among those around the first shown.
    func leftOut(_ frame: RunAnswer.Frame) -> String? {
        let timeline = answer.report.timeline
        if timeline.omitted > 0, frame.endSeq < timeline.firstSeq || frame.startSeq >= timeline.lastSeq {
            return "this run is cut to the timeline's window (seq \(timeline.firstSeq)…\(timeline.lastSeq))"
        }
        if !drawnFrames.contains(frame.index) {
            return "of this run's \(answer.report.steps.count) steps, \(Self.framesDrawn) are drawn in full "
                + "(steps \(drawnFrames.lowerBound)…\(drawnFrames.upperBound))"
        }
        return nil
    }

    private func appGroup(_ frame: RunAnswer.Frame, _ page: inout HTMLText) {
        page.element("h3", text: "App Group")
        let suites = Set(frame.appGroup.keys).union(frame.before.appGroup.keys).sorted()
        guard !suites.isEmpty else { return page.element("p", ["class": "empty"], text: "empty") }
        page.element("table", ["class": "app-group"]) { table in
            table.raw("<thead><tr><th>key</th><th>before</th><th>after</th></tr></thead>")
            table.element("tbody") { rows in
                for suite in suites {
                    let after = frame.appGroup[suite] ?? [:]
                    let before = frame.before.appGroup[suite] ?? [:]
                    let changed = Set(frame.changed.appGroup[suite] ?? [])
                    rows.element("tr", ["class": "suite"]) { $0.element("th", ["colspan": "3"], text: suite) }
                    for key in Set(after.keys).union(before.keys).sorted() {
                        rows.element(
                            "tr", ["class": changed.contains(key) ? "changed" : nil, "data-suite": suite, "data-key": key]
                        ) { row in
                            row.element("td", ["class": "key"], text: key)
                            row.element("td", ["class": "before"], text: before[key] ?? "—")
                            row.element("td", ["class": "after"], text: after[key] ?? "—")
                        }
                    }
                }
            }
        }
    }

    private func shields(_ frame: RunAnswer.Frame, _ page: inout HTMLText) {
        page.element("h3", text: "Shields")
        let stores = Set(frame.shields.keys).union(frame.before.shields.keys).sorted()
        guard !stores.isEmpty else { return page.element("p", ["class": "empty"], text: "no store shields anything") }
        let changed = Set(frame.changed.shields)
        page.element("table", ["class": "shields"]) { table in
            table.raw("<thead><tr><th>store</th><th>before</th><th>after</th></tr></thead>")
            table.element("tbody") { rows in
                for store in stores {
                    rows.element("tr", ["class": changed.contains(store) ? "changed" : nil, "data-store": store]) { row in
                        row.element("td", ["class": "key"], text: store)
                        row.element("td", ["class": "before"], text: Self.compact(frame.before.shields[store]))
                        row.element("td", ["class": "after"], text: Self.compact(frame.shields[store]))
                    }
                }
            }
        }
    }

    private func effects(_ frame: RunAnswer.Frame, _ page: inout HTMLText) {
        let sequences = frame.endSeq > frame.startSeq ? Array(frame.startSeq + 1...frame.endSeq) : []
        page.element("h3", text: "Effects (\(sequences.count))")
        page.element("ol", ["class": "effects"]) { list in
            for seq in sequences.prefix(Self.effectsPerStep) {
                guard let event = events[seq] else { continue }
                let role = links[seq]?.roleClass
                list.element("li", ["class": ["effect", role].compactMap { $0 }.joined(separator: " "), "data-seq": "\(seq)"]) {
                    item in
                    item.element("span", ["class": "seq"], text: "\(seq)")
                    item.element("span", ["class": "t"], text: Self.number(event["t"]?.doubleValue ?? 0))
                    item.element("span", ["class": "actor"], text: event["actor"]?.stringValue ?? "?")
                    item.element("span", ["class": "kind"], text: event["kind"]?.stringValue ?? "?")
                    item.element("span", ["class": "fields"], text: Self.fields(of: event))
                }
            }
            if sequences.count > Self.effectsPerStep {
                list.element("li", ["class": "more"], text: "… \(sequences.count - Self.effectsPerStep) more effects not listed")
            }
        }
    }

    /// An event's own fields, `name=value`, sorted (the common ones are shown apart).
    private static func fields(of event: JSONValue) -> String {
        let common: Set = ["seq", "t", "time", "kind", "actor", "sandbox"]
        guard let members = event.objectValue else { return "" }
        return members.keys.filter { !common.contains($0) }.sorted().map { "\($0)=\(compact(members[$0]))" }
            .joined(separator: " ")
    }

    static func compact(_ value: JSONValue?) -> String {
        guard let value else { return "—" }
        if let text = value.stringValue { return text }
        return (try? JSONWire.encodeString(value)) ?? "?"
    }

    /// `600`, `29.5`: a whole number without its `.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value))" : "\(value)"
    }
}
