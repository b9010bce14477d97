import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import SpendLess

/// The shopping apps the SpendLess suites select, with their catalog names.
enum Shop {
    static let amazon = "com.amazon.Amazon"  // Amazon
    static let shein = "com.shein.sheinapp"  // SHEIN
}

let group = "group.com.spendless.data"
let spendLessApp = "com.spendless.app"
/// Seven days, in seconds.
let week = 7.0 * 24 * 3600

/// SpendLess's shield over the app named `name`: warm texts, one button.
func pauseShield(_ name: String) -> ShieldConfiguration {
    ShieldConfiguration(
        title: "Take a breath", subtitle: "\(name) will still be here in a minute. Open SpendLess for a mindful pause.",
        primaryButtonLabel: "Take a pause", secondaryButtonLabel: nil)
}

/// A waiting-list entry as the App Group holds it.
func waitingItem(id: Int, name: String, price: Double, addedAt: Double, reminded: Bool = false) -> StoredValue {
    .dictionary([
        "id": .int(id), "name": .string(name), "price": .double(price), "addedAt": .double(addedAt),
        "readyAt": .double(addedAt + week), "reminded": .bool(reminded),
    ])
}

/// The signpost of an intervention started (`app` nil from the panic button).
func started(_ type: String, app: String?) -> Effect {
    .app(event: "interventionStarted", fields: ["type": .string(type)].merging(app.map { ["app": .string($0)] } ?? [:]) { $1 })
}

func finished(_ outcome: String) -> Effect {
    .app(event: "interventionFinished", fields: ["outcome": .string(outcome)])
}

/// The main app in front (after `app.open`).
let mainAppInFront = Effect.appState(locked: false, foregroundApp: spendLessApp, shieldShown: false)
/// The home screen.
let home = Effect.appState(locked: false, foregroundApp: nil, shieldShown: false)

/// Throws unless `steps` fails with `expected`, whose `reason` is matched by its start only
/// (`field` and the refusal's `reason` exactly).
func expectRefusal(_ expected: DeviceError, _ steps: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        try steps()
        Issue.record("expected \(expected), but it went through", sourceLocation: sourceLocation)
    } catch let error as DeviceError {
        switch (error, expected) {
        case (.invalidArgument(let field, _), .invalidArgument(let expectedField, _)):
            #expect(field == expectedField, sourceLocation: sourceLocation)
        case (.refused(let reason, _), .refused(let expectedReason, _)):
            #expect(reason == expectedReason, sourceLocation: sourceLocation)
        default:
            Issue.record("expected \(expected), got \(error)", sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("expected \(expected), got \(error)", sourceLocation: sourceLocation)
    }
}

func invalid(_ field: String) -> DeviceError { .invalidArgument(field: field, reason: "") }
func refused(_ reason: String) -> DeviceError { .refused(reason: reason, message: "") }

extension TestDevice {
    /// A SpendLess device (Monday 2026-01-05 09:00 UTC) with `apps` selected and shielded.
    static func spendLess(selecting apps: [String] = [Shop.amazon, Shop.shein]) throws -> TestDevice {
        let device = try TestDevice(app: .spendLess)
        try device.intent(
            "selectApps", ["apps": .array(apps.map(JSONValue.string))],
            effects: [
                .storeWrite(suite: group, key: "selectedApps", value: .array(apps.map(StoredValue.string))),
                .storeWrite(suite: group, key: "selectedCategories", value: .array([])),
                .shieldApply(store: "shopping", applications: apps.sorted(), categories: .none),
            ])
        return device
    }

    /// Opens `app`, which is shielded: SpendLess's shield drawn over it.
    func openShielded(_ app: String) throws {
        try send(
            .appOpen(app: app),
            effects: [
                .appState(locked: false, foregroundApp: app, shieldShown: false),
                .shieldShown(app: app, configuration: pauseShield(CategoryCatalog.builtIn.displayName(of: app)), source: .extension),
                .appState(locked: false, foregroundApp: app, shieldShown: true),
            ])
    }

    /// Presses `Take a pause` on `app`'s shield: the flag and its app written, the app closed.
    func pressPause(_ app: String) throws {
        try send(
            .shieldPress(app: app, button: .primary),
            effects: [
                .storeWrite(suite: group, key: "interventionTriggeredApp", value: .string(app)),
                .storeWrite(suite: group, key: "interventionTriggered", value: .bool(true)),
                .shieldAction(app: app, button: .primary, response: .close),
                home,
            ])
    }

    /// Opens SpendLess with the flag set: it is cleared and `effects` follow.
    func openSpendLessWithFlag(then effects: [Effect]) throws {
        try send(
            .appOpen(app: spendLessApp),
            effects: [mainAppInFront, .storeWrite(suite: group, key: "interventionTriggered", value: .bool(false))] + effects)
    }

    /// Shield pressed on `app`, SpendLess opened: an intervention of `type` for `app`.
    func triggerIntervention(from app: String, type: String = "fullFlow") throws {
        try openShielded(app)
        try pressPause(app)
        try openSpendLessWithFlag(then: [started(type, app: app)])
    }

    /// `intervention.next` with `args`; no effect unless `effects`. Returns the step reached.
    @discardableResult
    func next(_ args: JSONValue = [:], effects: [Effect] = []) throws -> String? {
        try intent("intervention.next", args, effects: effects)
        return try spendLessState().intervention?.step
    }

    func spendLessState() throws -> SpendLessState {
        try appState(as: SpendLessState.self)
    }
}
