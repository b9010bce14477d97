import Foundation
import SimulatediOS

/// SpendLess's main app (seed 002): the app selection, the intervention state machine
/// (`InterventionManager`), temporary access (`ShieldSessionManager`), the waiting list and the
/// graveyard. Settings, lists and counts live in the App Group; the running intervention lives
/// only in this process's memory, as the seed's singleton does.
///
/// Signposts (the trace's `app` events) mark what memory alone would hide: `interventionStarted`
/// (`type`, `app` unless from the panic button), `interventionRetargeted` (`app`) and `interventionFinished` (`outcome`).
actor SpendLessMainApp: WorldActor {
    nonisolated let executor: WorldActorExecutor
    let process: SpendLessProcess
    /// The intervention on screen, if any; a change bumps ``dataRevision`` (it is in the snapshot).
    private var intervention: Intervention? {
        didSet { if intervention != oldValue { dataRevision.bump() } }
    }
    /// Bumped whenever ``intervention`` changes: the daemon then journals the request.
    nonisolated let dataRevision = DataRevision()

    init(executor: WorldActorExecutor, process: SpendLessProcess) {
        self.executor = executor
        self.process = process
    }

    private var defaults: AppGroupDefaults { process.sharedDefaults }
    private var now: Double { process.platform.now.seconds }

    /// `t` as the dashboard shows it: ISO-8601 UTC.
    private func iso(_ t: Double) -> String { process.platform.calendar.isoString(VirtualInstant(seconds: t)) }

    /// Launch: asks to post notifications, which the waiting list's reminders need (iOS shows
    /// none to an app that never asked; the seed does not say where it asks).
    func launch() async throws {
        try await process.platform.notificationCenter.requestAuthorization()
    }

    /// `app.terminate`: the intervention on screen was the process's (the seed's in-memory
    /// `InterventionManager`): it is gone; the App Group's lists and counts stay.
    func processEnded() {
        intervention = nil
    }

    /// The main app's memory for the device's snapshot: the running intervention.
    func persistentData() throws -> Data {
        try PersistentData.encode(Memory(intervention: intervention))
    }

    func restore(from data: Data) throws {
        intervention = try JSONDecoder().decode(Memory.self, from: data).intervention
    }

    private struct Memory: Codable {
        let intervention: Intervention?
    }

    // MARK: - The flag (seed 002, "main app checks on `scenePhase` active")

    /// Picks up the shield's flag. While `interventionTriggered` reads true: write it `false`, then
    /// read `interventionTriggeredApp` (ShieldAction writes the app before the flag, so this read
    /// sees the app of the press that set the flag, or of a later one), then start an intervention
    /// of the current type for that app — or, when one runs, make that app its app
    /// (docs/apps/spendless.md, "The flag"). The flag is read again after each round, so a press
    /// landing between the read and the write is not lost: it is handled now, or the flag stays
    /// true for the next activation. Flag absent or false: nothing.
    func didBecomeActive() async throws {
        while try await defaults.bool(forKey: SpendLessKeys.interventionTriggered) {
            try await defaults.set(.bool(false), forKey: SpendLessKeys.interventionTriggered)
            let app = try await defaults.string(forKey: SpendLessKeys.interventionTriggeredApp)
            let type = try await process.interventionType()
            if var running = intervention {
                running.app = app
                intervention = running
                emit("interventionRetargeted", Self.appField(app))
            } else {
                begin(Intervention(type: type, step: type.firstStep, app: app, startedAt: now))
            }
        }
    }

    private func begin(_ started: Intervention) {
        intervention = started
        emit("interventionStarted", ["type": .string(started.type.rawValue)].merging(Self.appField(started.app)) { $1 })
    }

    /// `app` when there is one (a panic-button intervention has none).
    private static func appField(_ app: String?) -> [String: StoredValue] {
        app.map { ["app": .string($0)] } ?? [:]
    }

    private func emit(_ name: String, _ fields: [String: StoredValue]) {
        process.platform.signposter.emitEvent(name, fields)
    }

    // MARK: - Intents

    /// `selectApps`: the shopping apps (and categories) to shield, at once.
    func selectApps(_ apps: [String], categories: [String]) async throws -> SpendLessState {
        try await defaults.set(.array(apps.map(StoredValue.string)), forKey: SpendLessKeys.selectedApps)
        try await defaults.set(.array(categories.map(StoredValue.string)), forKey: SpendLessKeys.selectedCategories)
        try await process.applyShields()
        return try await state()
    }

    /// `setInterventionType`: the type the next intervention takes.
    func setInterventionType(_ type: InterventionType) async throws -> SpendLessState {
        try await defaults.set(.string(type.rawValue), forKey: SpendLessKeys.interventionType)
        return try await state()
    }

    /// `intervention.start` (seed 002's PanicButtonWidget): an intervention with no triggering
    /// app, of `type` or else the current type. Refused while one runs.
    func startIntervention(type requested: InterventionType?) async throws -> SpendLessState {
        let current = try await process.interventionType()
        guard intervention == nil else {
            throw DeviceError.refused(reason: "interventionActive", message: "an intervention is already running")
        }
        let type = requested ?? current
        begin(Intervention(type: type, step: type.firstStep, app: nil, startedAt: now))
        return try await state()
    }

    /// `intervention.next`: one step of the flow (``InterventionFlow``). `item` is taken only at
    /// `logItem`, where it joins the waiting list.
    func nextStep(choice: String?, item: SpendLessIntent.Item?) async throws -> SpendLessState {
        guard var current = intervention else {
            throw DeviceError.refused(reason: "noIntervention", message: "no intervention is running")
        }
        switch InterventionFlow.next(after: current.step, of: current.type, choice: choice) {
        case .failure(.complete):
            throw DeviceError.refused(
                reason: "interventionComplete", message: "the intervention is at celebration: finish it")
        case .failure(.invalidChoice(let reason)):
            throw DeviceError.invalidArgument(field: "args.choice", reason: reason)
        case .success(let step):
            if item != nil, current.step != .logItem {
                throw DeviceError.invalidArgument(field: "args.item", reason: "an item is logged only at logItem")
            }
            current.step = step
            intervention = current
        }
        if let item { try await addToWaitingList(name: item.name, price: item.price) }
        return try await state()
    }

    /// `intervention.finish`: ends the intervention at any step. `resisted` counts one more
    /// resisted urge; `access` unshields the triggering app for 10 minutes (refused `noApp` for
    /// one started by the panic button).
    func finish(_ outcome: SpendLessIntent.Finish.Outcome) async throws -> SpendLessState {
        guard let current = intervention else {
            throw DeviceError.refused(reason: "noIntervention", message: "no intervention is running")
        }
        if outcome == .access, current.app == nil {
            throw DeviceError.refused(reason: "noApp", message: "this intervention has no app to open (panic button)")
        }
        intervention = nil
        emit("interventionFinished", ["outcome": .string(outcome.rawValue)])
        switch outcome {
        case .resisted:
            let count = try await process.resistedCount()
            try await defaults.set(.int(count + 1), forKey: SpendLessKeys.resistedCount)
        case .access:
            if let app = current.app { try await openAccessSession(for: app) }
        }
        return try await state()
    }

    /// Unshields `app` until now + 10 minutes (a whole second), replacing any session running:
    /// DeviceActivity wakes the monitor then (``SpendLessMonitor``), also while this app is
    /// suspended or not running.
    private func openAccessSession(for app: String) async throws {
        let session = AccessSession(app: app, endsAt: (now + SpendLessKeys.accessSessionSeconds).rounded(.up))
        try await defaults.set(session.storedValue, forKey: SpendLessKeys.accessSession)
        try await process.platform.deviceActivityCenter.startMonitoring(
            SpendLessKeys.accessActivity, during: process.schedule(startingAt: session.endsAt))
        try await process.applyShields()
    }

    /// `logItem`: onto the waiting list for 7 days.
    func logItem(name: String, price: Double) async throws -> SpendLessState {
        try await addToWaitingList(name: name, price: price)
        return try await state()
    }

    /// A new waiting-list item, ready in 7 days. Its reminder is scheduled when no earlier one
    /// waits (the monitor schedules each next one).
    private func addToWaitingList(name: String, price: Double) async throws {
        let id = max(try await defaults.integer(forKey: SpendLessKeys.nextItemId), 1)
        try await defaults.set(.int(id + 1), forKey: SpendLessKeys.nextItemId)
        let item = WaitingListItem(
            id: id, name: name, price: price, addedAt: now, readyAt: now + SpendLessKeys.waitingPeriodSeconds, reminded: false)
        let items = try await process.waitingList() + [item]
        try await process.setWaitingList(items)
        if !items.dropLast().contains(where: { !$0.reminded }) { try await process.monitorNextReminder(items) }
    }

    /// `waitingList.resolve`: `buried` moves the item to the graveyard, `bought` removes it.
    func resolve(id: Int, decision: SpendLessIntent.Resolve.Decision) async throws -> SpendLessState {
        var items = try await process.waitingList()
        guard let index = items.firstIndex(where: { $0.id == id }) else {
            throw DeviceError.invalidArgument(field: "args.id", reason: "no waiting-list item \(id)")
        }
        let item = items.remove(at: index)
        try await process.setWaitingList(items)
        if decision == .buried {
            let buried = GraveyardItem(name: item.name, price: item.price, buriedAt: now)
            let graveyard = try await process.graveyard() + [buried]
            try await defaults.set(.array(graveyard.map(\.storedValue)), forKey: SpendLessKeys.graveyard)
        }
        return try await state()
    }

    // MARK: - State

    /// The dashboard (`device.state.app`, docs/apps/spendless.md#devicestateapp).
    func state() async throws -> SpendLessState {
        let running = intervention
        return SpendLessState(
            selectedApps: try await process.selectedApps(),
            interventionType: try await process.interventionType().rawValue,
            interventionTriggered: try await defaults.bool(forKey: SpendLessKeys.interventionTriggered),
            triggeredApp: try await defaults.string(forKey: SpendLessKeys.interventionTriggeredApp),
            intervention: running.map {
                SpendLessState.RunningIntervention(
                    type: $0.type.rawValue, step: $0.step.rawValue, app: $0.app, startedAt: iso($0.startedAt))
            },
            accessSession: try await process.accessSession().map { SpendLessState.Session(app: $0.app, endsAt: iso($0.endsAt)) },
            waitingList: try await process.waitingList().map {
                SpendLessState.Item(
                    id: $0.id, name: $0.name, price: $0.price, addedAt: iso($0.addedAt), readyAt: iso($0.readyAt),
                    ready: $0.readyAt <= now)
            },
            graveyard: try await process.graveyard().map { SpendLessState.Buried(name: $0.name, price: $0.price, buriedAt: iso($0.buriedAt)) },
            resistedCount: try await process.resistedCount())
    }
}
