// Part of the Foqos port (docs/porting-foqos.md); not in the original.

/// What the port's main app answers (`status`, and `device.state`'s `app`): the profile just
/// saved, the saved profiles, the active session and the shield.
public struct FoqosStatus: Codable, Sendable, Equatable {
  public var profileId: String?
  public var profiles: [String]
  public var activeProfileId: String?
  public var breakActive: Bool
  public var completedSessions: Int
  public var activities: [String]
  public var shielded: Bool
}
