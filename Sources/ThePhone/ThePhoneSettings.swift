import SimulatediOS

/// The Phone's settings (`config.app`): none, so any member is refused by name. What varies a
/// device of The Phone is device config: `platform` (`ios`, `android`: docs/apps/thephone.md, "The
/// Android client"), `backend` (docs/apps/thephone-backend.md, "Instances") and
/// `notificationPermission` (temptation pushes).
public struct ThePhoneSettings: AppConfiguration, Equatable {
    public static let members: [String] = []

    public init() {}
}
