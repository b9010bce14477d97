/// The timeline: one lane per process (`data-lane`), each step, callback and intent a span
/// placed by trace sequence, the schedule's switches and the faults marked; a step's span
/// selects its frame. A run cut to a window says how many events were left out.
extension RunReportPage {
    func timeline(_ page: inout HTMLText) {
        let timeline = answer.report.timeline
        let first = timeline.firstSeq
        let width = Double(max(timeline.lastSeq - first + 1, 1))
        let frames = Dictionary(answer.report.steps.map { ($0.path, $0.index) }) { first, _ in first }
        func percent(_ value: Double) -> String { RunReportPage.number((value * 10_000).rounded() / 100) + "%" }
        page.element("section", ["id": "timeline"]) { section in
            section.element("h2", text: "Timeline")
            if timeline.omitted > 0 {
                section.element(
                    "p", ["class": "degraded"],
                    text: "This run has \(timeline.events) trace events: the timeline draws \(timeline.events - timeline.omitted) "
                        + "of them (seq \(first)…\(timeline.lastSeq), around the failure); \(timeline.omitted) were left out. "
                        + "Only the steps within that window are drawn in full.")
            }
            if answer.report.steps.count > Self.framesDrawn {
                section.element(
                    "p", ["class": "degraded"],
                    text: "This run has \(answer.report.steps.count) steps: \(Self.framesDrawn) of them "
                        + "(\(drawnFrames.lowerBound)…\(drawnFrames.upperBound)) are drawn in full, the others list only their label.")
            }
            section.element("div", ["class": "lanes"]) { lanes in
                for lane in timeline.lanes {
                    lanes.element("div", ["class": "lane", "data-lane": lane.name]) { row in
                        row.element("span", ["class": "lane-name"], text: lane.name)
                        row.element("div", ["class": "track"]) { track in
                            for span in lane.spans {
                                let start = Double(max(span.startSeq, first) - first)
                                let end = Double(min(span.endSeq, timeline.lastSeq) - first + 1)
                                let failing = span.path.flatMap { frames[$0] }.map { answer.report.steps[$0].failing } ?? false
                                track.element(
                                    "span",
                                    [
                                        "class": "span \(span.kind)", "data-seq": "\(span.startSeq)",
                                        "data-frame": span.path.flatMap { frames[$0] }.map(String.init),
                                        "data-failing": failing ? "true" : nil,
                                        "style": "left:\(percent(start / width));width:\(percent(max(end - start, 0) / width))",
                                        "title": "\(span.label) (seq \(span.startSeq)…\(span.endSeq))",
                                    ], text: span.label)
                            }
                            for mark in lane.marks {
                                track.element(
                                    "span",
                                    [
                                        "class": "mark \(mark.kind)", "data-seq": "\(mark.seq)",
                                        "style": "left:\(percent(Double(mark.seq - first) / width))",
                                        "title": "\(mark.label) (seq \(mark.seq))",
                                    ], text: "")
                            }
                        }
                    }
                }
            }
        }
    }
}
