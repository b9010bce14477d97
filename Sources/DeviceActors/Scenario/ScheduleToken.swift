import ExtensionSandbox

/// A schedule as one short string to paste (as Shuttle prints one): the scenario it was found
/// for and the picks that differ from the non-preemptive one,
/// `v1:<scenario hash>:<decision>@<task>,…` — `v1:3f2a9c1b0e7d5a44:12@3,40@1`, or
/// `v1:3f2a9c1b0e7d5a44:` for the non-preemptive schedule itself; when faults fired, a fourth
/// part names them, `v1:3f2a9c1b0e7d5a44:12@3:jetsam@2,callbackDropped@0` (``FaultSite``).
/// Replaying it on another scenario is refused; on another build it replays, or stops at the
/// first decision it no longer fits (a divergence, never a silent other run).
public struct ScheduleToken: Sendable, Equatable, CustomStringConvertible {
    public static let version = "v2"

    /// The scenario's hash (``Scenario/hash``); empty when not known.
    public let scenarioHash: String
    public let deviations: [ScheduleDeviation]
    /// The faults that fired, in order of kind then site.
    public let faults: [FaultSite]

    public init(scenarioHash: String, deviations: [ScheduleDeviation], faults: [FaultSite] = []) {
        self.scenarioHash = scenarioHash
        self.deviations = deviations
        self.faults = faults.sorted()
    }

    public var description: String {
        "\(Self.version):\(scenarioHash):" + deviations.map { "\($0.decision)@\($0.task)" }.joined(separator: ",")
            + (faults.isEmpty ? "" : ":" + faults.map(\.description).joined(separator: ","))
    }

    /// Reads a token; nil when it is not one (the reason says why).
    public static func parse(_ text: String) -> Result<ScheduleToken, TokenError> {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 4 else {
            return .failure(.init(reason: "a token is v1:<scenario hash>:<decision>@<task>,…[:<fault>@<site>,…]"))
        }
        guard parts[0] == Self.version else {
            return .failure(.init(reason: "token version \(parts[0]) is not \(Self.version) (made by another clarityd)"))
        }
        var deviations: [ScheduleDeviation] = []
        for pick in parts[2].split(separator: ",", omittingEmptySubsequences: false) where !parts[2].isEmpty {
            let halves = pick.split(separator: "@", omittingEmptySubsequences: false)
            guard halves.count == 2, let decision = Int(halves[0]), let task = Int(halves[1]), decision >= 0, task >= 0,
                deviations.last.map({ $0.decision < decision }) ?? true
            else {
                return .failure(.init(reason: "\(pick) is not <decision>@<task> with decisions increasing"))
            }
            deviations.append(ScheduleDeviation(decision: decision, task: task))
        }
        var faults: [FaultSite] = []
        if parts.count == 4 {
            for text in parts[3].split(separator: ",", omittingEmptySubsequences: false) {
                guard let site = FaultSite(text), !faults.contains(site) else {
                    return .failure(
                        .init(reason: "\(text) is not <fault>@<site> (faults: \(Fault.allCases.map(\.rawValue).joined(separator: ", ")))"))
                }
                faults.append(site)
            }
        }
        return .success(ScheduleToken(scenarioHash: String(parts[1]), deviations: deviations, faults: faults))
    }

    /// FNV-1a (64 bits, sixteen hexadecimal digits) of `bytes`: how a token names its scenario.
    public static func fingerprint(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public struct TokenError: Error, Sendable, Equatable {
        public let reason: String
    }
}
