import Foundation
import JSONValues
import ScenarioFiles
import Testing

@_spi(Host) import SimulatediOS

/// An intent's JSON arguments are decoded once per process for the same input type and JSON
/// (every schedule of an exploration sends the scenario's intents again); a refused argument
/// is refused every time, naming its field. Serialized: the tests count decodes of one type.
@Suite(.serialized) struct IntentInputMemoTests {
    private static let decodes = DecodeCount()

    /// An input that counts how often it is decoded.
    private struct CountedInput: IntentInput, Equatable {
        let apps: [String]

        init(from decoder: any Decoder) throws {
            IntentInputMemoTests.decodes.add()
            apps = try decoder.container(keyedBy: CodingKeys.self).decode([String].self, forKey: .apps)
        }

        private enum CodingKeys: String, CodingKey { case apps }
    }

    private let table = IntentTable(
        [AppIntent<Int>.named("select", CountedInput.self) { _, input in input.apps }], on: 0)

    @Test func theSameArgumentsAreDecodedOnceAndRefusedEveryTime() throws {
        let instagram = JSONIntentArguments(value: ["apps": ["com.burbn.instagram"]])
        let before = Self.decodes.value
        for _ in 0..<3 { _ = try table.prepare("select", instagram) }
        #expect(Self.decodes.value - before == 1)
        _ = try table.prepare("select", JSONIntentArguments(value: ["apps": ["com.zhiliaoapp.musically"]]))
        #expect(Self.decodes.value - before == 2)
        for _ in 0..<2 {
            #expect(refusedField(["apps": "com.burbn.instagram"]) == "args.apps")
        }
        #expect(Self.decodes.value - before == 4)
    }

    /// A client may send arguments of up to a request's size: large ones are decoded every time,
    /// never kept (256 remembered megabyte lists would hold a quarter of a gigabyte).
    @Test func largeArgumentsAreNotRemembered() throws {
        let apps = JSONValue.array((0..<2_000).map { .string("com.example.app\($0)") })
        let large = JSONIntentArguments(value: ["apps": apps])
        let before = Self.decodes.value
        for _ in 0..<2 { _ = try table.prepare("select", large) }
        #expect(Self.decodes.value - before == 2)
    }

    private func refusedField(_ arguments: JSONValue) -> String? {
        do {
            _ = try table.prepare("select", JSONIntentArguments(value: arguments))
            return nil
        } catch {
            guard case .invalidArgument(let field, _) = error else { return nil }
            return field
        }
    }
}

// unchecked: lock-protected: `count` is touched only under `lock`
private final class DecodeCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
