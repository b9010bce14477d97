/// A temptation the backend sent (the seed's `sendPushNotification`): a push to every device of
/// the user (docs/apps/thephone-backend.md, "Pushes").
public struct Temptation: Codable, Sendable, Equatable {
    public let username: String
    /// The user's devices when it was sent.
    public let devices: [String]
    public let kind: Temptations.Kind
    /// The filled template.
    public let body: String
    /// Milliseconds since 1970.
    public let at: Int64
}
