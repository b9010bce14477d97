/// A user action as a value: an intent's name and its typed input, so that a test writes
/// `try device.send(.limitApps(["com.burbn.instagram"]))` where a command line writes
/// `clarityctl intent limitApps apps='["com.burbn.instagram"]'` (docs/sdk.md, "Typed steps").
///
/// An app offers its actions as a type of its own beside its intents, with one static member
/// per intent in an `extension AppAction where Self == …` (as SwiftUI offers styles), so that
/// `.limitApps(…)` is found wherever an `AppAction` is taken:
///
/// ```swift
/// public struct DailyLimitAction: AppAction {
///     public let name: String
///     public let input: any Encodable & Sendable
/// }
///
/// extension AppAction where Self == DailyLimitAction {
///     public static func limitApps(_ apps: [String]) -> Self { Self(name: "limitApps", input: LimitApps(apps: apps)) }
///     public static var status: Self { Self(name: "status", input: NoArguments()) }
/// }
/// ```
///
/// The input goes through the intent's own decoding and validation, exactly as JSON `args` do.
public protocol AppAction: Sendable {
    /// The intent's name, as the app's ``IntentTable`` lists it.
    var name: String { get }
    /// Its input, encoded as the intent's `args` (usually the intent's own ``IntentInput`` type).
    var input: any Encodable & Sendable { get }
}
