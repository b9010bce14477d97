import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// What a failed schedule's story says after its switches: the causal chain to the broken
/// condition (``CausalChain``) and the reads whose writer differs from the sequential run's —
/// the scenario replayed with no deviation, every process running until it waits or ends
/// (``ReadsFrom``).
public struct FailureExplanation: Sendable {
    public let chain: CausalChain
    public let readsFromDiff: [ReadsFromChange]
    /// Why the schedule keeps each deviation and fault, when asked (a shrunk failure of
    /// `explore`): the story says it on each switch.
    public internal(set) var needs: [DeviationNeed] = []

    /// Reads-from changes a story shows; the failure's `readsFromDiff` holds them all.
    static let shownChanges = 5

    /// Explains `outcome`, which failed, against `sequential`; nil when it passed.
    public init?(_ outcome: ScenarioOutcome, sequential: ScenarioOutcome) {
        guard let failure = outcome.failure, let device = outcome.device else { return nil }
        let entries = Array(device.trace.recorder.entries(after: 0))
        let readsFrom = ReadsFrom(entries)
        chain = CausalChain(entries: entries, failure: failure, readsFrom: readsFrom)
        let unperturbed = sequential.device.map { ReadsFrom($0.trace.recorder.entries(after: 0)) }
        readsFromDiff = unperturbed.map(readsFrom.difference(from:)) ?? []
    }

    /// Explains `outcome`, a failed schedule of `scenario`, replaying the sequential schedule
    /// with the same quirks and the same tracing (`tracesEveryRead`: as `outcome` ran).
    public init?(
        _ outcome: ScenarioOutcome, of scenario: Scenario, interruption: (@Sendable () -> Bool)? = nil,
        tracesEveryRead: Bool = true
    ) {
        guard outcome.failure != nil else { return nil }
        let sequential = ScenarioRunner.run(
            scenario, replaying: .deviations([]), quirks: outcome.quirks, interruption: interruption,
            tracesEveryRead: tracesEveryRead)
        self.init(outcome, sequential: sequential)
    }

    /// The story's lines after the failure line.
    public var lines: [String] {
        var lines = chain.summary.map { ["because: " + $0] } ?? []
        guard !readsFromDiff.isEmpty else { return lines }
        lines.append("reads that differ from the sequential run:")
        lines += readsFromDiff.prefix(Self.shownChanges).map { "  " + $0.line }
        if readsFromDiff.count > Self.shownChanges { lines.append("  … \(readsFromDiff.count - Self.shownChanges) more") }
        return lines
    }
}
