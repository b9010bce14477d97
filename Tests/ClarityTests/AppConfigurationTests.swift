import Foundation
import Testing

@testable import Clarity
@_spi(Host) @testable import SimulatediOS

/// An app's settings (`config.app`) decode strictly from the stored values, naming what does not
/// fit by its path; numbers convert as JSON's do.
@Suite struct AppConfigurationTests {
    private func refusal(_ values: [String: StoredValue]) -> String? {
        do {
            _ = try ClarityConfig.decode(values)
            return nil
        } catch {
            guard case .invalidArgument(let field, let reason) = error else { return "\(error)" }
            return "\(field): \(reason)"
        }
    }

    private func thresholds(_ values: [StoredValue]) -> [String: StoredValue] {
        ["frictionThresholdsMinutes": .array(values)]
    }

    @Test func missingMembersTakeTheirDefaults() throws {
        #expect(try ClarityConfig.decode([:]) == ClarityConfig())
        #expect(try ClarityConfig.decode(["verificationNamesChallenge": .bool(true)]) == ClarityConfig(verificationNamesChallenge: true))
    }

    @Test func wholeNumbersMayBeWrittenWithAFraction() throws {
        let config = try ClarityConfig.decode(thresholds([.double(1.0), .int(2), .double(3), .int(4), .int(5)]))
        #expect(config.frictionThresholdsMinutes == [1, 2, 3, 4, 5])
    }

    @Test func whatDoesNotFitIsNamedByItsPath() {
        #expect(refusal(["frictionThresholdMinutes": .array([])])
            == "frictionThresholdMinutes: unknown setting (known: frictionThresholdsMinutes, verificationNamesChallenge)")
        #expect(refusal(thresholds([.double(1.5), .int(2), .int(3), .int(4), .int(5)]))
            == "frictionThresholdsMinutes[0]: expected a whole number that fits Int")
        #expect(refusal(thresholds([.int(1), .double(1e300), .int(3), .int(4), .int(5)]))
            == "frictionThresholdsMinutes[1]: expected a whole number that fits Int")
        #expect(refusal(thresholds([.int(1), .string("2"), .int(3), .int(4), .int(5)]))
            == "frictionThresholdsMinutes[1]: expected a whole number")
        #expect(refusal(["frictionThresholdsMinutes": .dictionary([:])]) == "frictionThresholdsMinutes: expected an array")
        #expect(refusal(["frictionThresholdsMinutes": .data(Data([1]))]) == "frictionThresholdsMinutes: expected an array")
        #expect(refusal(["verificationNamesChallenge": .int(1)]) == "verificationNamesChallenge: expected true or false")
        #expect(refusal(thresholds([.int(5), .int(4), .int(3), .int(2), .int(1)]))
            == "frictionThresholdsMinutes: five increasing minute counts, each 1 to 1440")
        #expect(refusal(thresholds([.int(1), .int(2), .int(3), .int(4), .int(1441)]))
            == "frictionThresholdsMinutes: five increasing minute counts, each 1 to 1440")
    }
}
