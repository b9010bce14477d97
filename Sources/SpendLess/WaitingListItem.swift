import SimulatediOS

/// Seed 002's `WaitingListItem`: something the user wanted, waiting 7 days before it may be
/// bought. Stored in the App Group under `waitingList` as a dictionary, times as virtual `t`.
struct WaitingListItem: Sendable, Equatable {
    let id: Int
    let name: String
    let price: Double
    let addedAt: Double
    /// `addedAt` + 7 days.
    let readyAt: Double
    /// The reminder was posted (so it is posted once).
    var reminded: Bool

    var storedValue: StoredValue {
        .dictionary([
            "id": .int(id), "name": .string(name), "price": .double(price), "addedAt": .double(addedAt),
            "readyAt": .double(readyAt), "reminded": .bool(reminded),
        ])
    }

    init(id: Int, name: String, price: Double, addedAt: Double, readyAt: Double, reminded: Bool) {
        self.id = id
        self.name = name
        self.price = price
        self.addedAt = addedAt
        self.readyAt = readyAt
        self.reminded = reminded
    }

    /// An entry as ``storedValue`` writes it; nil for anything else.
    init?(_ value: StoredValue) {
        guard case .dictionary(let fields) = value, let id = fields["id"]?.intValue, let name = fields["name"]?.stringValue,
            let price = fields["price"]?.doubleValue, let addedAt = fields["addedAt"]?.doubleValue,
            let readyAt = fields["readyAt"]?.doubleValue
        else { return nil }
        self.init(
            id: id, name: name, price: price, addedAt: addedAt, readyAt: readyAt, reminded: fields["reminded"]?.boolValue ?? false)
    }
}
