/// Why the backend refused a request. The raw values are the reasons docs/apps/thephone.md,
/// "Intents", names, for the daemon to report as they are.
public enum PhoneBackendError: String, Error, Codable, Sendable, Equatable {
    /// `POST /auth/register` with a username another user has (seed: `username … UNIQUE`).
    case usernameTaken
    /// No user of that name.
    case noSuchUser
    /// No group with that id or invite code, or the id of a private group (joined by code only).
    case noSuchGroup
    /// The group already has `max_members` members (seed: `max_members INTEGER NOT NULL DEFAULT 50`).
    case groupFull
    /// The user is already a member (seed: `PRIMARY KEY (group_id, user_id)`).
    case alreadyMember
    /// The user is not a member (seed's leaderboard route: 403 `Not a member of this group`).
    case notMember
    /// A time zone Foundation does not know (the seed's `toLocaleString` would throw on it).
    case unknownTimeZone
    /// The user created a group, which the seed's schema does not let go
    /// (`creator_id UUID NOT NULL REFERENCES users(id)`, no `ON DELETE`): `deleteUserData`
    /// rolls back.
    case groupCreator
    /// A quiet-hours bound that is not `HH:MM` (seed: `quiet_start TIME`).
    case invalidQuietHours
    /// An event id that is not a UUID (seed's `syncRequestSchema`: `id: z.string().uuid()`).
    case invalidClientId
}
