import Foundation
import Testing

@testable import ThePhoneBackend

/// The seed's `syncEvents` ("Event Sync Endpoint"), and its rule in docs/apps/thephone-backend.md,
/// "Rules, with their source".
@Suite struct SyncTests {
    @Test func storesAndConfirmsEachNewEvent() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        let response = try backend.sync("ann", [event(1, .lock, monday), event(2, .unlock, monday + 30 * minute)], now: monday + hour)
        let stored = try backend.events(of: "ann")
        #expect(response.confirmed == [
            SyncResponse.Confirmed(clientId: clientId(1), serverId: stored[0].id),
            SyncResponse.Confirmed(clientId: clientId(2), serverId: stored[1].id),
        ])
        #expect(response.serverTime == monday + hour)
        #expect(response.newEvents.isEmpty)
        #expect(stored.map(\.createdAt) == [monday + hour, monday + hour])
        #expect(stored.map(\.clientId) == [clientId(1).lowercased(), clientId(2).lowercased()])
    }

    /// Seed: "Reject events > 7 days old" (`event.timestamp < now - maxAge`): not stored, not confirmed.
    @Test func rejectsEventsOlderThanSevenDays() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        let now = monday + 7 * day
        let response = try backend.sync("ann", [event(1, .lock, now - 7 * day - 1), event(2, .lock, now - 7 * day)], now: now)
        #expect(response.confirmed.map(\.clientId) == [clientId(2)])
        #expect(try backend.events(of: "ann").map(\.timestamp) == [now - 7 * day])
    }

    /// Seed: "Normalize future timestamps": more than 60 s ahead is stored as now.
    @Test func clampsTimestampsMoreThanSixtySecondsAheadToNow() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        let now = monday
        let response = try backend.sync("ann", [event(1, .lock, now + 60 * second), event(2, .unlock, now + 60 * second + 1)], now: now)
        #expect(response.confirmed.count == 2)
        #expect(try backend.events(of: "ann").map(\.timestamp) == [now, now + 60 * second])
    }

    /// Seed: `ON CONFLICT (user_id, client_id) DO NOTHING` and only inserted rows confirmed.
    @Test func ignoresClientIdsAlreadyStoredWithoutConfirmingThem() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        try backend.sync("ann", [event(1, .lock, monday)], now: monday)
        let lowercased = SyncRequest.Event(id: clientId(2).lowercased(), eventType: .unlock, timestamp: monday + hour, source: "shortcut")
        let again = try backend.sync("ann", [event(1, .lock, monday), lowercased, event(2, .unlock, monday + hour)], now: monday + hour)
        #expect(again.confirmed.map(\.clientId) == [clientId(2).lowercased()])
        #expect(try backend.events(of: "ann").count == 2)
    }

    /// A duplicate is found by the user's index of client ids (`UserEvents`), kept with their
    /// events as they are synced, decoded and purged: synced, then synced again (each a
    /// duplicate), then purged by retention and synced once more (no longer duplicates). The
    /// index is what made a 9,000-event sync with 180,000 stored take 0.26 s instead of 126 s;
    /// that is measured by scripts/backend-sync.py (docs/reliability.md, issue 38), not here.
    @Test func duplicatesAreFoundByTheIndexOfClientIds() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        let count = 2_000
        let events = (1...count).map { event($0, $0 % 2 == 0 ? .unlock : .lock, monday + Int64($0) * second) }
        let now = monday + Int64(count + 1) * second
        #expect(try backend.sync("ann", events, now: now).confirmed.count == count)
        #expect(try backend.sync("ann", events + [event(count + 1, .lock, now)], now: now).confirmed.map(\.clientId) == [clientId(count + 1)])
        #expect(try backend.events(of: "ann").count == count + 1)
        let decoded = try JSONDecoder().decode(PhoneBackend.self, from: JSONEncoder().encode(backend))
        #expect(decoded.events.values.first?.contains(clientId: clientId(count).lowercased()) == true, "the index is rebuilt when decoded")

        let later = now + PhoneBackend.retention + day
        #expect(backend.purgeOldEvents(now: later) == count + 1)
        let again = events.prefix(2).map { SyncRequest.Event(id: $0.id, eventType: $0.eventType, timestamp: later, source: $0.source) }
        #expect(try backend.sync("ann", again, now: later).confirmed.count == 2, "purged ids are no longer duplicates")
    }

    /// Another device's events come back as `newEvents` (server ids, by timestamp); the
    /// requesting device's own events of this request do not.
    @Test func returnsOtherDevicesEventsAfterLastSync() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        try backend.login(username: "ann", device: "ipad")
        let first = try backend.sync(
            "ann", [event(1, .unlock, monday + 2 * minute), event(2, .lock, monday + minute)], now: monday + 5 * minute)
        let second = try backend.sync("ann", [event(3, .lock, monday + 6 * minute)], now: monday + 10 * minute, lastSync: monday)
        let stored = try backend.events(of: "ann")
        #expect(second.newEvents == [
            SyncResponse.NewEvent(id: first.confirmed[1].serverId, eventType: .lock, timestamp: monday + minute, source: "shortcut"),
            SyncResponse.NewEvent(id: first.confirmed[0].serverId, eventType: .unlock, timestamp: monday + 2 * minute, source: "shortcut"),
        ])
        #expect(stored.map(\.timestamp) == [monday + minute, monday + 2 * minute, monday + 6 * minute])
        let caughtUp = try backend.sync("ann", [], now: monday + 11 * minute, lastSync: second.serverTime)
        #expect(caughtUp.newEvents.isEmpty)
    }

    /// Two syncs at one instant run at two server instants, 1 ms apart (``PhoneBackend/syncInstant(now:)``):
    /// an event another device stores at the `now` a device took as its `lastSync` is created
    /// after it and pulled, as on a real server, where two requests never share a millisecond.
    /// The device that stored it does not pull it back (its `serverTime` is its rows' instant).
    @Test func eventsStoredAtAnotherDevicesLastSyncInstantArePulled() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        let phone = try backend.sync("ann", [event(1, .lock, monday)], now: monday + minute)
        let pad = try backend.sync("ann", [event(2, .unlock, monday + minute)], now: monday + minute)
        #expect(phone.serverTime == monday + minute && pad.serverTime == monday + minute + 1)
        #expect(try backend.events(of: "ann").map(\.createdAt) == [monday + minute, monday + minute + 1])
        let later = try backend.sync("ann", [], now: monday + 2 * minute, lastSync: phone.serverTime)
        #expect(later.newEvents.map(\.id) == [pad.confirmed[0].serverId])
        #expect(try backend.sync("ann", [], now: monday + 2 * minute, lastSync: pad.serverTime).newEvents.isEmpty)
        #expect(try backend.sync("ann", [], now: monday + 3 * minute, lastSync: pad.serverTime).serverTime == monday + 3 * minute)
    }

    /// A backend saved before sync instants were kept (no `lastSyncInstant`) counts its clock as
    /// the last one: the next sync at that clock runs 1 ms after it.
    @Test func aBackendSavedWithoutSyncInstantsStartsAfterItsClock() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        backend.lastSyncInstant = nil
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(backend)) as? [String: Any] ?? [:]
        #expect(json["lastSyncInstant"] == nil)
        json["clock"] = monday
        var old = try JSONDecoder().decode(PhoneBackend.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(try old.sync("ann", [], now: monday).serverTime == monday + 1)
    }

    /// A backend whose last sync ran at the end of its times (a valid but extreme snapshot):
    /// the next sync stays there, so the backend it saves is still read back.
    @Test func aSyncInstantNeverLeavesTheBackendsTimes() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        backend.lastSyncInstant = PhoneBackend.times.upperBound
        #expect(try backend.sync("ann", [], now: monday).serverTime == PhoneBackend.times.upperBound)
        #expect(backend.timesAreWithinRange)
    }

    @Test func refusesIdsThatAreNotUUIDsAndUnknownUsers() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        let bad = SyncRequest.Event(id: "not-a-uuid", eventType: .lock, timestamp: monday, source: "shortcut")
        #expect(throws: PhoneBackendError.invalidClientId) { try backend.sync("ann", [event(1, .lock, monday), bad], now: monday) }
        #expect(try backend.events(of: "ann").isEmpty)
        #expect(throws: PhoneBackendError.noSuchUser) { try backend.sync("bob", [], now: monday) }
    }

    /// Only a sync that confirmed something recalculates (seed: `if (confirmed.length > 0)`).
    @Test func aSyncConfirmingNothingLeavesScoresAlone() throws {
        var backend = try PhoneBackend.with([("ann", "UTC")])
        try backend.sync("ann", [], now: monday)
        try backend.sync("ann", [event(1, .lock, monday - 8 * day)], now: monday)
        #expect(try backend.weeklyScores(of: "ann").isEmpty)
    }
}
