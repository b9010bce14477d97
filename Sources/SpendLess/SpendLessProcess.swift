import Foundation
import SimulatediOS

/// What every SpendLess process (the main app and each extension) is given: the platform and
/// handles on what the processes share. Each process reads the App Group afresh, as on iOS.
struct SpendLessProcess: Sendable {
    let platform: Platform

    /// `UserDefaults(suiteName: "group.com.spendless.data")`.
    var sharedDefaults: AppGroupDefaults { platform.userDefaults(suiteName: SpendLessKeys.appGroup) }
    var shoppingStore: ManagedSettingsStore { platform.managedSettingsStore(named: SpendLessKeys.shoppingStore) }

    // MARK: - The App Group

    func selectedApps() async throws -> [String] {
        try await sharedDefaults.stringArray(forKey: SpendLessKeys.selectedApps) ?? []
    }

    func selectedCategories() async throws -> [String] {
        try await sharedDefaults.stringArray(forKey: SpendLessKeys.selectedCategories) ?? []
    }

    func interventionType() async throws -> InterventionType {
        try await sharedDefaults.string(forKey: SpendLessKeys.interventionType).flatMap(InterventionType.init(rawValue:))
            ?? .standard
    }

    func accessSession() async throws -> AccessSession? {
        AccessSession(try await sharedDefaults.object(forKey: SpendLessKeys.accessSession))
    }

    func waitingList() async throws -> [WaitingListItem] {
        guard case .array(let entries)? = try await sharedDefaults.object(forKey: SpendLessKeys.waitingList) else { return [] }
        return entries.compactMap(WaitingListItem.init)
    }

    func setWaitingList(_ items: [WaitingListItem]) async throws {
        try await sharedDefaults.set(.array(items.map(\.storedValue)), forKey: SpendLessKeys.waitingList)
    }

    func graveyard() async throws -> [GraveyardItem] {
        guard case .array(let entries)? = try await sharedDefaults.object(forKey: SpendLessKeys.graveyard) else { return [] }
        return entries.compactMap(GraveyardItem.init)
    }

    func resistedCount() async throws -> Int {
        try await sharedDefaults.integer(forKey: SpendLessKeys.resistedCount)
    }

    // MARK: - Shields

    /// Puts `shopping` where the App Group says: the selected apps and categories, less the app
    /// in an access session (excepted from its categories too). A store already right is not
    /// written (no effect).
    func applyShields() async throws {
        let apps = try await selectedApps()
        let categories = try await selectedCategories()
        let open = Set((try await accessSession()).map { [$0.app] } ?? [])
        try await shoppingStore.setShield(
            applications: Set(apps).subtracting(open),
            categories: categories.isEmpty ? .none : .specific(Set(categories), except: open))
    }

    // MARK: - DeviceActivity

    /// A one-off interval starting at `start` and lasting DeviceActivity's minimum: the monitor's
    /// `intervalDidStart` is the wake-up at `start`, whether or not the main app runs.
    func schedule(startingAt start: Double) -> DeviceActivitySchedule {
        DeviceActivitySchedule(
            intervalStart: spec(start), intervalEnd: spec(start + SpendLessKeys.minimumIntervalSeconds), repeats: false)
    }

    private func spec(_ t: Double) -> DateComponentsSpec {
        let components = platform.calendar.calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: platform.calendar.date(VirtualInstant(seconds: t)))
        return DateComponentsSpec(
            year: components.year, month: components.month, day: components.day, hour: components.hour,
            minute: components.minute, second: components.second)
    }

    /// The access session is over (if one was due): it leaves the App Group, its activity stops
    /// and the app is shielded again.
    func endAccessSession() async throws {
        guard let session = try await accessSession(), session.endsAt <= platform.now.seconds else { return }
        try await sharedDefaults.removeObject(forKey: SpendLessKeys.accessSession)
        try await platform.deviceActivityCenter.stopMonitoring([SpendLessKeys.accessActivity])
        try await applyShields()
    }

    /// Wakes the monitor at the earliest `readyAt` not yet reminded, or stops the reminders'
    /// activity when every item has had its reminder.
    func monitorNextReminder(_ items: [WaitingListItem]) async throws {
        let center = platform.deviceActivityCenter
        if let next = items.filter({ !$0.reminded }).map(\.readyAt).min() {
            try await center.startMonitoring(SpendLessKeys.waitingListActivity, during: schedule(startingAt: next))
        } else if try await center.activities().contains(SpendLessKeys.waitingListActivity) {
            try await center.stopMonitoring([SpendLessKeys.waitingListActivity])
        }
    }

    /// Posts the reminder of every item whose 7 days are over and marks it reminded, then waits
    /// for the next one (seed 002: `NotificationManager`, "Local notifications for waiting list
    /// reminders").
    func remindReadyItems() async throws {
        var items = try await waitingList()
        let now = platform.now.seconds
        let due = items.indices.filter { !items[$0].reminded && items[$0].readyAt <= now }
        guard !due.isEmpty else { return try await monitorNextReminder(items) }
        for index in due { items[index].reminded = true }
        try await setWaitingList(items)
        for index in due {
            try await platform.notificationCenter.add(
                title: "Still want it?",
                body: "\(items[index].name) has waited 7 days. Decide with a clear head: bury it or buy it.")
        }
        try await monitorNextReminder(items)
    }
}
