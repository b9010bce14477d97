import Testing

@testable import ExtensionSandbox

/// The trace keeps the newest entries that fit its count and its bytes; numbering goes on.
@Suite struct TraceRecorderTests {
    private func recorder(capacity: Int = 100, bytes: Int) -> TraceRecorder<Int> {
        TraceRecorder(capacity: capacity, byteCapacity: bytes, cost: { $0 })
    }

    private func record(_ recorder: TraceRecorder<Int>, _ payloads: [Int]) {
        for payload in payloads { recorder.record(time: .epoch, actor: "", sandbox: nil, payload: payload) }
    }

    private let overhead = TraceRecorder<Int>.entryOverhead

    @Test func largeEntriesAreDroppedOldestFirstOnceTheyHoldMoreThanItsBytes() {
        let trace = recorder(bytes: 3 * (1000 + overhead))
        record(trace, [1000, 1000, 1000, 1000, 1000])
        #expect(trace.entries(after: 0).map(\.sequence) == [3, 4, 5])
        #expect(trace.keptBytes == 3 * (1000 + overhead))
        #expect(trace.lastSequence == 5)
    }

    @Test func smallEntriesAreBoundedByTheCountAlone() {
        let trace = recorder(capacity: 4, bytes: 1 << 30)
        record(trace, Array(repeating: 1, count: 10))
        #expect(trace.entries(after: 0).map(\.sequence) == [7, 8, 9, 10])
    }

    @Test func theNewestEntryIsKeptHoweverLarge() {
        let trace = recorder(bytes: 100)
        record(trace, [10, 5000])
        #expect(trace.entries(after: 0).map(\.payload) == [5000])
        record(trace, [10])
        #expect(trace.entries(after: 0).map(\.payload) == [10])
    }

    @Test func entriesAfterASequenceAreFoundAcrossDropsAndCompactions() {
        let trace = recorder(capacity: 1000, bytes: 50 * (8 + overhead))
        record(trace, Array(repeating: 8, count: 5000))
        #expect(trace.count == 50)
        #expect(trace.entries(after: 4990).map(\.sequence) == Array(4991...5000))
        #expect(trace.entries(after: 10).first?.sequence == 4951)
        #expect(trace.entries(after: 5000).isEmpty)
    }

    @Test func aFullTracesStorageStaysWithinAQuarterMoreThanItKeeps() {
        let trace = recorder(capacity: 100_000, bytes: 1_000 * (8 + overhead))
        for round in 1...20 {
            record(trace, Array(repeating: 8, count: 1_000))
            #expect(trace.count == 1_000)
            if round > 1 { #expect(trace.storageCapacity <= 1_251, "round \(round)") }
        }
    }

    /// Entries of uneven sizes: the dropped ones lag behind a quarter of the bytes now and then,
    /// and the storage, full before they are let go of, used to double (2.5 times what it keeps):
    /// a soak's 100 devices crept toward that over many minutes (issue 22). Now the storage is
    /// sized a quarter over what is kept each time the dropped are let go of; as sizes vary, the
    /// count kept moves a little below that, but the storage never doubles.
    @Test func unevenEntriesDoNotDoubleAFullTracesStorage() {
        let trace = recorder(capacity: 100_000, bytes: 64 * 1024)
        var generator = SeededRandom(seed: 22)
        var worst = 0.0
        for index in 1...50_000 {
            trace.record(time: .epoch, actor: "", sandbox: nil, payload: Int(generator.next() % 400))
            if index > 5_000 { worst = max(worst, Double(trace.storageCapacity) / Double(trace.count)) }
        }
        #expect(worst <= 1.4, "storage reached \(worst) times the entries kept")
    }
}
