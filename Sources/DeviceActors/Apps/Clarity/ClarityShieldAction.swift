import ExtensionSandbox

/// Clarity's ShieldAction extension.
///
/// - Secondary, "I Choose to Continue": the user may always continue past friction (seed 000,
///   Key Rules). The app is taken out of the `friction` store's shield, so it stays open until
///   the monitor shields the selection again at the next layer; returns `.none`. Other stores'
///   shields (WiFi gate, focus) stay.
/// - Primary, "Open Clarity": an extension cannot open its app, so the shield closes the app
///   (`.close`) and the user goes to Clarity (project choice, docs/apps/clarity.md).
actor ClarityShieldAction: WorldActor, ShieldActionDelegate {
    nonisolated let executor: WorldActorExecutor
    private let platform: Platform

    init(executor: WorldActorExecutor, platform: Platform) {
        self.executor = executor
        self.platform = platform
    }

    func handle(action: ShieldButton, for application: String) async throws -> ShieldActionResponse {
        switch action {
        case .primary:
            return .close
        case .secondary:
            let store = platform.managedSettingsStore(named: ClarityKeys.frictionStore)
            var shield = try await store.shield()
            shield.applications.remove(application)
            switch shield.applicationCategories {
            case .none: break
            case .all(var except):
                except.insert(application)
                shield.applicationCategories = .all(except: except)
            case .specific(let categories, var except):
                except.insert(application)
                shield.applicationCategories = .specific(categories, except: except)
            }
            try await store.setShield(applications: shield.applications, categories: shield.applicationCategories)
            return .none
        }
    }
}
