import ControlProtocol
import Testing

@testable import clarityctl

@Suite struct AdvanceDurationTests {
    @Test(arguments: [
        ("10m", 600.0), ("90s", 90), ("1h30m", 5400), ("2d", 172_800), ("1.5h", 5400), ("42", 42), ("0.5", 0.5),
    ])
    func readsHumanDurations(text: String, seconds: Double) {
        #expect(AdvanceDuration.seconds(text) == seconds)
    }

    @Test(arguments: ["0", "-1", "5x", "h", "1h30", "", "m5", "inf"])
    func refusesWhatIsNotAPositiveDuration(text: String) {
        #expect(AdvanceDuration.seconds(text) == nil)
    }
}

@Suite struct ArgumentValuesTests {
    @Test func keyValuePairsAreJSONWhenTheyParseElseStrings() throws {
        let pairs = try ArgumentValues.keyValuePairs(["enabled=true", "ssid=Home", #"apps=["a","b"]"#, "n=3", "empty="])
        #expect(pairs["enabled"] == true)
        #expect(pairs["ssid"] == "Home")
        #expect(pairs["apps"] == ["a", "b"])
        #expect(pairs["n"] == 3)
        #expect(pairs["empty"] == "")
    }

    @Test func aWordWithoutKeyIsAUsageErrorNamingIt() {
        #expect(throws: UsageError.self) { try ArgumentValues.keyValuePairs(["=x"]) }
        #expect(throws: UsageError.self) { try ArgumentValues.keyValuePairs(["novalue"]) }
    }

    @Test func integersAndNumbers() throws {
        #expect(try ArgumentValues.integer("5", for: "-c", minimum: 1) == 5)
        #expect(throws: UsageError.self) { try ArgumentValues.integer("0", for: "-c", minimum: 1) }
        #expect(try ArgumentValues.number("2.5", for: "--value") == 2.5)
        #expect(try ArgumentValues.number("7", for: "--value") == 7)
    }
}

@Suite struct ArgumentsTests {
    @Test func aRepeatedOptionGivesEveryValueInOrderOrItsLast() throws {
        var arguments = Arguments(["--kind", "a", "x", "--kind=b", "--app", "one", "--app=two"])
        #expect(try arguments.values(of: "--kind") == ["a", "b"])
        #expect(try arguments.value(of: "--app") == "two")
        #expect(arguments.remainingPositionals() == ["x"])
    }

    @Test func anOptionIsNotTheValueOfAnother() throws {
        var arguments = Arguments(["--kind", "--last", "3"])
        #expect(throws: UsageError.self) { try arguments.values(of: "--kind") }
        var negative = Arguments(["--since", "-3"])
        #expect(try negative.value(of: "--since") == "-3")
    }
}
