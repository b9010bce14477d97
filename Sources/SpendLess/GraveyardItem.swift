import SimulatediOS

/// Seed 002's `GraveyardItem`: something the user resisted buying, kept for celebration.
/// Stored in the App Group under `graveyard`, `buriedAt` as virtual `t`.
struct GraveyardItem: Sendable, Equatable {
    let name: String
    let price: Double
    let buriedAt: Double

    var storedValue: StoredValue {
        .dictionary(["name": .string(name), "price": .double(price), "buriedAt": .double(buriedAt)])
    }

    init(name: String, price: Double, buriedAt: Double) {
        self.name = name
        self.price = price
        self.buriedAt = buriedAt
    }

    init?(_ value: StoredValue) {
        guard case .dictionary(let fields) = value, let name = fields["name"]?.stringValue,
            let price = fields["price"]?.doubleValue, let buriedAt = fields["buriedAt"]?.doubleValue
        else { return nil }
        self.init(name: name, price: price, buriedAt: buriedAt)
    }
}
