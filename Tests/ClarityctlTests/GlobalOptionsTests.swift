import Testing

@testable import clarityctl

@Suite struct GlobalOptionsTests {
    private func options(_ words: [String]) throws -> GlobalOptions {
        var arguments = Arguments(words)
        return try GlobalOptions.extract(from: &arguments, environment: [:])
    }

    @Test func theTimeoutIsSixtySecondsUnlessGivenAndZeroWaitsForever() throws {
        #expect(try options(["ping"]).timeout == 60)
        #expect(try options(["--timeout", "0.5", "ping"]).timeout == 0.5)
        #expect(try options(["ping", "--timeout=90"]).timeout == 90)
        #expect(try options(["--timeout", "0", "ping"]).timeout == nil)
    }

    @Test(arguments: ["-1", "abc", "1e400", "inf", "nan", "0x10", "1.2.3", ".", ""])
    func aTimeoutThatIsNotADecimalNumberOfSecondsIsRefused(text: String) {
        #expect(throws: UsageError.self) { try options(["--timeout", text, "ping"]) }
    }
}
