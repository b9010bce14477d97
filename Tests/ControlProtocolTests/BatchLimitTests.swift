import ControlProtocol
import Foundation
import Testing

/// A batch of more members than the limit is refused whole, before any member is looked at.
@Suite struct BatchLimitTests {
    private func parse(_ text: String, maxBatchRequests: Int) -> Result<InboundMessage, RPCError> {
        Array(text.utf8).withUnsafeBytes { InboundMessage.parse($0, maxBatchRequests: maxBatchRequests) }
    }

    @Test func aBatchOfExactlyTheLimitIsTaken() {
        guard case .success(.batch(let items)) = parse("[1,2,3]", maxBatchRequests: 3) else {
            Issue.record("expected a batch")
            return
        }
        #expect(items.count == 3)
    }

    @Test func oneMemberMoreIsRefusedNamingTheLimit() {
        guard case .failure(let error) = parse("[1,2,3,4]", maxBatchRequests: 3) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(error == .batchTooLong(limit: 3, count: 4))
        #expect(error.code == -32600)
        #expect(error.data == ["limit": 3])
        #expect(error.message == "Invalid request: a batch may hold at most 3 requests; this one holds 4")
    }

    @Test func anEmptyBatchIsStillRefusedAsEmpty() {
        guard case .failure(let error) = parse("[]", maxBatchRequests: 3) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(error.message == "Invalid request: empty batch")
    }
}
