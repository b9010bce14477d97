import SimulatediOS

/// Clarity's own settings, fixed when the device is created (docs/apps/clarity.md). Today the
/// device's config carries them as `frictionThresholdsMinutes` and `verificationNamesChallenge`
/// (docs/protocol.md); the registry line in `AppCatalog` hands them over.
public struct ClarityConfig: Sendable, Hashable {
    /// Minutes of the day's usage at which friction layers 1…5 are reached (project choice).
    public var frictionThresholdsMinutes: [Int]
    /// On, the verification event names its challenge and the main app accepts a verification
    /// only for the challenge it is waiting on (the fix of seed 000 task 2c's race); off, the
    /// monitor verifies whichever challenge is current, as the seed does.
    public var verificationNamesChallenge: Bool

    public init(frictionThresholdsMinutes: [Int] = [5, 10, 15, 20, 25], verificationNamesChallenge: Bool = false) {
        self.frictionThresholdsMinutes = frictionThresholdsMinutes
        self.verificationNamesChallenge = verificationNamesChallenge
    }
}
