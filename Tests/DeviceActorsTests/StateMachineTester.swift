import Testing

/// A pure state machine under test, in the spirit of TCA's `TestStore`: every input's whole
/// output (its actions, or its refusal) is asserted, and so is its whole state change, written
/// as a change to the state before the input. A change the test does not name fails it, and so
/// does a refused input that changed anything.
struct StateMachineTester<Machine, State: Equatable> {
    /// The machine. Its settings may be set directly; its ``State`` changes only through inputs.
    var machine: Machine
    private let state: KeyPath<Machine, State>

    init(_ machine: Machine, state: KeyPath<Machine, State>) {
        self.machine = machine
        self.state = state
    }

    /// Sends `input`, which must return `output` and change the state exactly as `change` does.
    mutating func send<Output: Equatable>(
        _ input: (inout Machine) throws -> Output, returns output: Output,
        sourceLocation: SourceLocation = #_sourceLocation, _ change: (inout State) -> Void = { _ in }
    ) {
        var expected = machine[keyPath: state]
        change(&expected)
        do {
            let actual = try input(&machine)
            #expect(actual == output, "output", sourceLocation: sourceLocation)
        } catch {
            Issue.record(error, "expected \(output)", sourceLocation: sourceLocation)
        }
        #expect(machine[keyPath: state] == expected, "state", sourceLocation: sourceLocation)
    }

    /// Sends `input`, which returns nothing and must change the state exactly as `change` does.
    mutating func send(
        _ input: (inout Machine) -> Void, sourceLocation: SourceLocation = #_sourceLocation,
        _ change: (inout State) -> Void
    ) {
        var expected = machine[keyPath: state]
        change(&expected)
        input(&machine)
        #expect(machine[keyPath: state] == expected, "state", sourceLocation: sourceLocation)
    }

    /// Sends `input`, which must throw `failure` and change nothing.
    mutating func send<Output, Failure: Error & Equatable>(
        _ input: (inout Machine) throws -> Output, throws failure: Failure,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = machine[keyPath: state]
        do {
            _ = try input(&machine)
            Issue.record("expected \(failure) to be thrown", sourceLocation: sourceLocation)
        } catch {
            #expect(error as? Failure == failure, "\(error)", sourceLocation: sourceLocation)
        }
        #expect(machine[keyPath: state] == before, "state", sourceLocation: sourceLocation)
    }
}
