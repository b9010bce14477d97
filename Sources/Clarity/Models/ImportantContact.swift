import SimulatediOS

/// Seed 000, task 1c `ImportantContact`: one of the user's important people (at most 5).
struct ImportantContact: Codable, Sendable, Equatable {
    var id: String
    /// `CNContact.identifier`, or `manual-<n>` for a contact entered by hand.
    var contactIdentifier: String
    var contactName: String
    var contactPhone: String?
    var addedAt: Double
    var lastSuggestedAt: Double?
    var timesConnected = 0
    var lastConnectedAt: Double?
}
