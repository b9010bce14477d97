import ExtensionSandbox
@_spi(Host) import SimulatediOS

/// A ``TestDevice`` step caused other effects than the test listed: the step, both lists (with
/// the actor of each effect that happened) and where they first differ.
public struct TestDeviceFailure: Error, CustomStringConvertible {
    public let step: String
    public let expected: [Effect]
    /// The effects the step caused that ``exhaustivity`` covers, with their actors.
    public let actual: [TraceEntry<Effect>]
    public let exhaustivity: Exhaustivity

    public var description: String {
        let happened = actual.map(\.payload)
        let firstDifference = zip(expected, happened).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expected.count, happened.count)
        var lines = ["\(step): effects differ (exhaustivity \(exhaustivity)); first difference at #\(firstDifference + 1)"]
        lines.append("  expected (\(expected.count)):")
        lines += expected.enumerated().map { "    \($0.offset + 1). \(Self.render($0.element))" }
        lines.append("  actual (\(actual.count)):")
        lines += actual.enumerated().map { "    \($0.offset + 1). \($0.element.actor): \(Self.render($0.element.payload))" }
        return lines.joined(separator: "\n")
    }

    /// An effect as Swift source, near enough to paste: `.storeWrite(…, value: .int(2))`.
    static func render(_ effect: Effect) -> String {
        "." + "\(effect)".replacing(/SimulatediOS\.[A-Za-z]+/, with: "")
    }
}
