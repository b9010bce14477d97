import Foundation
import JSONValues
import Testing

@_spi(Fuzzing) @testable import ClarityDaemon

/// The structural mutation of fuzz-backend and fuzz-snapshot
/// (`FuzzEntryPoints.settingANumberToAnEdge`): one number of one line set to an edge value,
/// numbers inside base64 JSON (a snapshot's `appData`) included.
@Suite struct EdgeNumberMutatorTests {
    private static let nested = Data(#"{"totalXP":5}"#.utf8).base64EncodedString()
    private static let input = #"{"clock":7,"appData":"\#(nested)","name":"x"}"# + "\n" + #"{"op":"advance","by":3}"#

    /// The input mutated with `seed`, or nil; the buffer has room for `capacity` bytes.
    private func mutate(seed: UInt32, capacity: Int = 4096) -> String? {
        var bytes = Array(Self.input.utf8) + [UInt8](repeating: 0, count: max(0, capacity - Self.input.utf8.count))
        let size = bytes.withUnsafeMutableBufferPointer {
            FuzzEntryPoints.settingANumberToAnEdge($0.baseAddress!, size: Self.input.utf8.count, capacity: capacity, seed: seed)
        }
        return size.map { String(decoding: bytes[..<$0], as: UTF8.self) }
    }

    private func numbers(in text: String) throws -> [String: JSONValue] {
        var found: [String: JSONValue] = [:]
        for (index, line) in text.split(separator: "\n").enumerated() {
            guard case .object(let members) = try JSONValue(parsing: Data(line.utf8)) else { continue }
            for (key, value) in members {
                if case .string(let text) = value, let data = Data(base64Encoded: text),
                    case .object(let inner) = try JSONValue(parsing: data)
                {
                    for (innerKey, innerValue) in inner { found["\(index).\(key).\(innerKey)"] = innerValue }
                } else if case .int = value {
                    found["\(index).\(key)"] = value
                } else if case .double = value {
                    found["\(index).\(key)"] = value
                }
            }
        }
        return found
    }

    @Test func eachMutationChangesOneNumberAndReachesThoseInsideBase64() throws {
        let original = try numbers(in: Self.input)
        #expect(original.count == 3)
        var changed: Set<String> = []
        for seed in UInt32(0)..<2_000 {
            let mutated = try #require(mutate(seed: seed))
            let now = try numbers(in: mutated)
            #expect(Set(now.keys) == Set(original.keys), "every line still JSON, every number still there")
            let different = original.keys.filter { now[$0] != original[$0] }
            #expect(different.count <= 1, "seed \(seed) changed \(different)")
            changed.formUnion(different)
        }
        #expect(changed == ["0.clock", "0.appData.totalXP", "1.by"], "the string and the op are no numbers")
    }

    /// Without room for a longer number (`Int64.min` for `7`), or on a line that is no JSON, it
    /// gives up: the caller then mutates bytes.
    @Test func aResultThatDoesNotFitIsLeftToByteMutations() {
        let capacity = Self.input.utf8.count
        let results = (UInt32(0)..<200).map { mutate(seed: $0, capacity: capacity) }
        #expect(results.contains { $0 == nil })
        #expect(results.allSatisfy { ($0?.utf8.count ?? 0) <= capacity })
        var bytes = Array("not json".utf8)
        let size = bytes.withUnsafeMutableBufferPointer {
            FuzzEntryPoints.settingANumberToAnEdge($0.baseAddress!, size: $0.count, capacity: $0.count, seed: 1)
        }
        #expect(size == nil)
    }
}
