import SimulatediOS

/// The Phone's settings (`config.app`): none, so any member is refused by name. What varies a
/// device of The Phone is device config: `platform` (`ios`, `android`: APPS.md §4.7), `backend`
/// (APPS.md §4.6) and `notificationPermission` (temptation pushes).
public struct ThePhoneSettings: AppConfiguration, Equatable {
    public static let members: [String] = []

    public init() {}
}
