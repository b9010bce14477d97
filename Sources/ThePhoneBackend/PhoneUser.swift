/// A row of the seed's `users` table ("Database Schema"), with the devices signed in to it
/// (docs/apps/thephone.md, "Accounts": each device signs up as a user named after it;
/// `account.signIn` adds one).
public struct PhoneUser: Codable, Sendable, Equatable {
    /// The seed's `users.tracking_status` ("Tracking Status & Social Visibility").
    public enum TrackingStatus: String, Codable, Sendable, CaseIterable {
        /// Setup not completed: every new user (seed: `DEFAULT 'pending'`).
        case pending
        /// Setup completed and working.
        case verified
        /// A health check detected issues.
        case broken
    }

    public let id: String
    public let username: String
    /// The seed's `email … NOT NULL`; accounts in the simulation have none, so it is
    /// `<username>@thephone.invalid` (a decision, docs/apps/thephone-backend.md).
    public let email: String
    /// An IANA identifier (seed: `timezone VARCHAR(50) NOT NULL DEFAULT 'UTC'`).
    public let timezone: String
    /// `ios` or `android` (seed: `platform VARCHAR(10) NOT NULL`).
    public let platform: String
    public internal(set) var trackingStatus: TrackingStatus
    /// Milliseconds since 1970 (seed: `created_at … DEFAULT NOW()`).
    public let createdAt: Int64
    /// The devices signed in to this user, in sign-in order.
    public internal(set) var devices: [String]
}
