import ControlProtocol
import Foundation

/// The measurements of one bench phase (one method) and how they are printed.
struct BenchReport: Sendable {
    let label: String
    /// The devices a device phase spread over (1 for `daemon.ping`).
    let devices: Int
    let clients: Int
    let pipeline: Int
    /// Per-response latencies in nanoseconds, sorted.
    let latencies: [UInt64]
    let seconds: Double
    let errors: Int
    let errorSamples: [String]

    var requests: Int { latencies.count }
    var requestsPerSecond: Double { seconds > 0 ? Double(requests) / seconds : 0 }

    /// The latency at `fraction` (nearest rank), in milliseconds.
    func latencyMilliseconds(at fraction: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let rank = Int((fraction * Double(latencies.count)).rounded(.up)) - 1
        return Double(latencies[min(max(rank, 0), latencies.count - 1)]) / 1_000_000
    }

    /// `daemon.ping: 100000 requests, 50 clients, pipeline 1: 61234.5 requests/s, p50 0.412 ms, …`,
    /// then the error count and samples when there were errors.
    var lines: [String] {
        let figures = String(
            format: "%.1f requests/s, p50 %.3f ms, p99 %.3f ms, max %.3f ms", requestsPerSecond,
            latencyMilliseconds(at: 0.5), latencyMilliseconds(at: 0.99), latencyMilliseconds(at: 1))
        let spread = devices > 1 ? ", \(devices) devices" : ""
        let summary = "\(label): \(requests) requests, \(clients) clients\(spread), pipeline \(pipeline): \(figures)"
        guard errors > 0 else { return [summary] }
        return [summary, "  \(errors) error responses, e.g.:"] + errorSamples.map { "    " + $0 }
    }

    var json: JSONValue {
        [
            "method": .string(label), "requests": .int(requests), "devices": .int(devices), "clients": .int(clients),
            "pipeline": .int(pipeline),
            "seconds": .double(Self.rounded(seconds, places: 6)),
            "requestsPerSecond": .double(Self.rounded(requestsPerSecond, places: 1)),
            "p50Ms": .double(Self.rounded(latencyMilliseconds(at: 0.5), places: 3)),
            "p99Ms": .double(Self.rounded(latencyMilliseconds(at: 0.99), places: 3)),
            "maxMs": .double(Self.rounded(latencyMilliseconds(at: 1), places: 3)),
            "errors": .int(errors), "errorSamples": .array(errorSamples.map(JSONValue.string)),
        ]
    }

    private static func rounded(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}
