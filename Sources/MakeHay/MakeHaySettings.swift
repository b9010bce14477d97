import SimulatediOS

/// Make Hay's settings (`config.app`): none yet, so any member is refused by name. The platform
/// settings it depends on are device config: `healthAuthorization`,
/// `healthBackgroundDeliverySeconds` (docs/platform.md, "HealthKit").
public struct MakeHaySettings: AppConfiguration, Equatable {
    public static let members: [String] = []

    public init() {}
}
