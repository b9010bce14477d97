/// One user's rows of the seed's `events` table, in insertion order, with the set of their
/// client ids: the seed's `UNIQUE (user_id, client_id)` is an index, and a sync looks each of its
/// events up in it. Scanning the rows instead made a sync of 9,000 events take 27 s once the
/// user had 180,000 (and a restart, which syncs them all again, 12 minutes: docs/reliability.md,
/// issue 38). Encoded as the rows alone, as before the index; the index is rebuilt on decoding.
struct UserEvents: Codable, Sendable, Equatable {
    private(set) var rows: [PhoneEvent] = []
    private var clientIds: Set<String> = []

    init() {}

    init(from decoder: any Decoder) throws {
        rows = try [PhoneEvent](from: decoder)
        clientIds = Set(rows.map(\.clientId))
    }

    func encode(to encoder: any Encoder) throws {
        try rows.encode(to: encoder)
    }

    static func == (lhs: UserEvents, rhs: UserEvents) -> Bool {
        lhs.rows == rhs.rows
    }

    var isEmpty: Bool { rows.isEmpty }

    func contains(clientId: String) -> Bool {
        clientIds.contains(clientId)
    }

    mutating func append(_ row: PhoneEvent) {
        rows.append(row)
        clientIds.insert(row.clientId)
    }

    /// Deletes the rows `shouldBeRemoved` picks; returns how many.
    mutating func removeAll(where shouldBeRemoved: (PhoneEvent) -> Bool) -> Int {
        let before = rows.count
        rows.removeAll(where: shouldBeRemoved)
        guard rows.count < before else { return 0 }
        clientIds = Set(rows.map(\.clientId))
        return before - rows.count
    }
}
