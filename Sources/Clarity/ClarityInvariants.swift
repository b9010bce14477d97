import SimulatediOS

/// Clarity's built-in scenario invariants (docs/apps/clarity.md, "Invariants"):
/// - `challengeVerifiedByTexting`: a challenge verified by Communication use
///   (`communicationCategory`) had 30 s of it after that challenge was issued (seed 000 task 2b:
///   "30 seconds of usage" after the deep link; task 2c's monitor must not verify a later
///   challenge with an earlier one's threshold);
/// - `frictionNeverDecreasesWithinADay`: within one local day `frictionLevel` is only ever
///   written higher, except back to 0 by the monitor (the day's reset, tasks 3–4);
/// - `onlySelectedAppsShielded`: every store but Focus mode's shields only the user's selection
///   (`shieldedAppsSelection`).
public enum ClarityInvariants {
    public static let all = [challengeVerifiedByTexting, frictionNeverDecreasesWithinADay, onlySelectedAppsShielded]

    static let challengeVerifiedByTexting = AppInvariant(
        name: "challengeVerifiedByTexting",
        rule: "a challenge verified by Communication use had \(ProsocialLimits.textMinSeconds) s of it after it was issued"
    ) { ChallengeVerifiedByTexting() }

    static let frictionNeverDecreasesWithinADay = AppInvariant(
        name: "frictionNeverDecreasesWithinADay",
        rule: "frictionLevel never goes down within a local day, except back to 0 by the monitor"
    ) { FrictionNeverDecreasesWithinADay() }

    static let onlySelectedAppsShielded = AppInvariant(
        name: "onlySelectedAppsShielded",
        rule: "every store but Focus mode's shields only the apps and categories in shieldedAppsSelection"
    ) { OnlySelectedAppsShielded() }
}

/// Communication use since each challenge was issued, from the trace's `app.state` events.
private struct ChallengeVerifiedByTexting: InvariantCheck {
    private var usage: CommunicationUsage?
    private var atIssue: [String: Int64] = [:]

    mutating func violation(
        in device: any InvariantContext, newEntries: ArraySlice<TraceEntry<Effect>>
    ) throws(DeviceError) -> String? {
        var usage = self.usage ?? CommunicationUsage(catalog: device.catalog)
        defer { self.usage = usage }
        for entry in newEntries {
            switch entry.payload {
            case .appState(let locked, let foregroundApp, let shieldShown):
                usage.change(at: entry.time, counting: !locked && !shieldShown ? foregroundApp : nil)
            case .app("challengeIssued", let fields):
                if case .string(let id)? = fields["challengeId"] { atIssue[id] = usage.total(at: entry.time) }
            case .app("challengeVerified", let fields):
                guard case .string("communicationCategory")? = fields["verificationMethod"],
                    case .string(let id)? = fields["challengeId"]
                else { continue }
                let since = usage.total(at: entry.time) - (atIssue[id] ?? 0)
                if since < Int64(ProsocialLimits.textMinSeconds) * 1000 {
                    return "challenge \(id) was verified by Communication use at t=\(entry.time.seconds) with "
                        + "\(Double(since) / 1000) s of it since it was issued (trace seq \(entry.sequence))"
                }
            default:
                continue
            }
        }
        return nil
    }
}

/// The highest `frictionLevel` written today, from the trace's store writes.
private struct FrictionNeverDecreasesWithinADay: InvariantCheck {
    private var highest: (day: String, level: Int)?

    mutating func violation(
        in device: any InvariantContext, newEntries: ArraySlice<TraceEntry<Effect>>
    ) throws(DeviceError) -> String? {
        for entry in newEntries {
            guard case .storeWrite(ClarityKeys.appGroup, ClarityKeys.frictionLevel, .int(let level)) = entry.payload,
                entry.actor != "outside"
            else { continue }
            let day = device.calendar.dayKey(entry.time)
            // The monitor's reset (the interval ending: a new day, or monitoring restarted for a
            // new selection) starts the count again from 0.
            if level == 0 && entry.actor == "\(device.appName).monitor" {
                highest = (day, 0)
                continue
            }
            if let highest, highest.day == day, level < highest.level {
                return "frictionLevel went from \(highest.level) down to \(level) on \(day) "
                    + "(written by \(entry.actor), trace seq \(entry.sequence))"
            }
            if highest?.day != day || level > highest!.level { highest = (day, level) }
        }
        return nil
    }
}

/// The shields against the selection. The shields are followed in the trace (every change of a
/// store is traced), so a step that shields nothing costs no look at the device; the selection
/// is read from the App Group whenever something is shielded (a write may reach other processes
/// late, so its trace entry does not say when it is seen).
private struct OnlySelectedAppsShielded: InvariantCheck {
    private var stores: [String: ShieldSettings]?

    mutating func violation(
        in device: any InvariantContext, newEntries: ArraySlice<TraceEntry<Effect>>
    ) throws(DeviceError) -> String? {
        var stores: [String: ShieldSettings]
        if let known = self.stores {
            stores = known
            for entry in newEntries {
                switch entry.payload {
                case .shieldApply(let store, let applications, let categories, _):
                    stores[store] = ShieldSettings(applications: Set(applications), applicationCategories: categories)
                case .shieldClear(let store):
                    stores[store] = nil
                default:
                    continue
                }
            }
        } else {
            stores = try device.shieldStores()
        }
        self.stores = stores
        let shielding = stores.filter { store, shield in store != ClarityKeys.focusStore && !shield.isEmpty }
        guard !shielding.isEmpty else { return nil }
        let selection = FamilyActivitySelectionData.decode(
            try device.storeValue(suite: ClarityKeys.appGroup, key: ClarityKeys.shieldedAppsSelection)?.dataValue)
        let apps = Set(selection?.applicationTokens ?? [])
        let categories = Set(selection?.categoryTokens ?? [])
        for (store, shield) in shielding.sorted(by: { $0.key < $1.key }) {
            if let stray = shield.applications.subtracting(apps).sorted().first {
                return "store \(store) shields \(stray), which is not in the selection"
            }
            switch shield.applicationCategories {
            case .none: continue
            case .all: return "store \(store) shields all categories"
            case .specific(let shielded, _):
                if let stray = shielded.subtracting(categories).sorted().first {
                    return "store \(store) shields category \(stray), which is not in the selection"
                }
            }
        }
        return nil
    }
}

/// Communication-category usage reconstructed from the trace's `app.state` events (usage counts
/// for the frontmost app of an unlocked device while no shield covers it).
private struct CommunicationUsage {
    let catalog: CategoryCatalog
    private var counting: String?
    private var since = VirtualInstant.epoch
    private var accumulated: Int64 = 0

    init(catalog: CategoryCatalog) { self.catalog = catalog }

    mutating func change(at time: VirtualInstant, counting app: String?) {
        accumulated = total(at: time)
        since = time
        counting = app.flatMap { catalog.category(of: $0) == "communication" ? $0 : nil }
    }

    /// Milliseconds of Communication use up to `time`.
    func total(at time: VirtualInstant) -> Int64 {
        counting == nil ? accumulated : accumulated + (time.milliseconds - since.milliseconds)
    }
}
