/// Where the backend's ids and invite codes come from: two counters, so that the same requests
/// in the same order give the same ids (docs/apps/thephone-backend.md, "Determinism").
///
/// Ids are UUID-shaped (the seed's `UUID PRIMARY KEY DEFAULT gen_random_uuid()`) with the
/// counter in the last group, so that sorting ids sorts them by creation.
struct ServerIdentifiers: Codable, Sendable, Equatable {
    private var issued: UInt64 = 0
    private var codesIssued: UInt64 = 0

    /// The next id: `00000000-0000-4000-8000-` and the counter in 12 hex digits.
    mutating func next() -> String {
        issued += 1
        return "00000000-0000-4000-8000-" + Timestamps.zeroPadded(String(issued, radix: 16), 12)
    }

    /// The next group invite code (seed: `invite_code VARCHAR(20) UNIQUE`, format not given):
    /// six characters of an alphabet without 0/O and 1/I, the counter scrambled by an odd
    /// multiplier modulo 2³⁰, which keeps codes distinct.
    mutating func nextInviteCode() -> String {
        codesIssued += 1
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var value = (codesIssued &* 0x2F5A_3C1B) & 0x3FFF_FFFF
        var code = ""
        for _ in 0..<6 {
            code.append(alphabet[Int(value & 31)])
            value >>= 5
        }
        return code
    }
}
