import ControlProtocol
import DeviceActors
import DeviceTesting
import Foundation
import SimulatediOS
import Testing

@testable import ThePhone

/// Accounts and GDPR (docs/apps/thephone.md, "Accounts"): each device signs up at first launch as
/// its name; `account.signUp` / `signIn`; the seed's `exportUserData` / `deleteUserData`.
@Suite struct AccountTests {
    @Test func eachDeviceSignsUpAtFirstLaunchAsItsName() throws {
        let servers = Servers()
        let phone = try TestDevice.iPhone("alice", servers: servers, timeZone: "Asia/Tokyo")
        let android = try TestDevice.androidPhone("bob", servers: servers)
        #expect(try phone.phone().user == "alice" && android.phone().user == "bob")
        let backend = try BackendLook(phone)
        #expect(backend.user(of: "alice") == "alice" && backend.platform(of: "alice") == "ios")
        #expect(backend.platform(of: "bob") == "android")
        #expect(backend.read { $0.user(named: "alice")?.timezone } == "Asia/Tokyo")
    }

    /// A name already taken at first launch: the device stays signed out until the user picks one.
    @Test func aTakenNameLeavesTheDeviceSignedOutUntilSignUp() throws {
        let servers = Servers()
        _ = try TestDevice.iPhone("alice", servers: servers)
        let twin = try TestDevice.iPhone("alice", servers: servers)
        #expect(try twin.phone().user == nil)
        #expect(refusal { try twin.intent("group.create", ["name": "x"]) } == "notSignedIn")
        try twin.send(.appOpen(app: thePhone), effects: [opened, healthSignpost("neverVerified")])
        #expect(refusal { try twin.intent("account.signUp", ["username": "alice"], effects: [request("POST", "/auth/register", 409)]) } == "usernameTaken")
        try twin.intent("account.signUp", ["username": "alice2"], effects: switchedUser("POST", "/auth/register", 201))
        #expect(try twin.phone().user == "alice2")
    }

    @Test func signInNeedsAnExistingUser() throws {
        let device = try TestDevice.iPhone()
        #expect(refusal { try device.intent("account.signIn", ["username": "nobody"], effects: [request("POST", "/auth/login", 404)]) } == "noSuchUser")
        #expect(try device.phone().user == "alice")
        #expect(throws: DeviceError.invalidArgument(field: "args.username", reason: "1 to 30 characters")) {
            try device.intent("account.signIn", ["username": ""])
        }
        // Signing in again as the same user keeps the device's data.
        try device.lockRecorded()
        try device.intent("account.signIn", ["username": "alice"], effects: [request("POST", "/auth/login")])
        #expect(try device.phone().events == 1)
    }

    /// Another user on the device: the previous one's events are not uploaded into it (choice).
    @Test func switchingUserForgetsThePreviousUsersData() throws {
        let device = try TestDevice.iPhone()
        try device.intent("group.create", ["name": "Family"], effects: [request("POST", "/groups", 201)])
        try device.intent("setTemptations", ["intensity": "high"], effects: [request("PUT", "/temptations/settings")])
        try device.send(.networkOffline, effects: [.network(online: false)])
        try device.lockRecorded(offline: true)
        try device.send(.networkOnline, effects: [.network(online: true), syncRequest])
        try device.intent("account.signUp", ["username": "carol"], effects: switchedUser("POST", "/auth/register", 201))
        let state = try device.phone()
        #expect(state.user == "carol" && state.events == 0 && state.groups == [] && state.temptations == nil)
        #expect(try BackendLook(device).events(of: "carol").isEmpty)
    }

    /// The seed's `exportUserData`: its keys and column names.
    @Test func exportHasTheSeedsShape() throws {
        let device = try TestDevice.iPhone()
        try device.lockRecorded()
        try device.advance(minutes: 30)
        try device.unlockRecorded()
        let export = try device.intent("data.export", effects: [request("GET", "/users/me/export")])
        #expect(export.objectValue.map { Set($0.keys) } == ["exportedAt", "account", "events", "weeklyScores", "groups", "following"])
        #expect(export["account"]?["username"] == "alice")
        #expect(export["events"]?.arrayValue?.map { $0["event_type"] } == ["lock", "unlock"])
        #expect(export["weeklyScores"]?.arrayValue?.first?["total_points"] == 34.01)
        #expect(export["exportedAt"] == "2026-01-05T09:30:00.000Z")
    }

    /// The seed's `deleteUserData` → `{"success":true}`; the device is signed out and its events
    /// cleared (choice); a new sign-up starts afresh.
    @Test func deleteSignsTheDeviceOutAndClearsItsEvents() throws {
        let device = try TestDevice.iPhone()
        try device.lockRecorded()
        let answer = try device.intent("data.delete", effects: [request("DELETE", "/users/me")])
        #expect(answer == ["success": true])
        let state = try device.phone()
        #expect(state.user == nil && state.events == 0 && state.lastSync == nil)
        #expect(try BackendLook(device).read { $0.user(named: "alice") } == nil)
        #expect(refusal { try device.intent("data.export") } == "notSignedIn")
        try device.intent("account.signUp", ["username": "alice"], effects: switchedUser("POST", "/auth/register", 201))
    }

    /// Seed gap (docs/apps/thephone-backend.md): a group's creator cannot be deleted
    /// (`creator_id … REFERENCES users(id)`, no `ON DELETE`): refused, nothing changes, and the
    /// message names the group and says that leaving it does not help (it once said only
    /// "DELETE /users/me answered 500 (groupCreator)").
    @Test func aGroupsCreatorCannotDeleteTheirData() throws {
        let device = try TestDevice.iPhone()
        try device.intent("group.create", ["name": "Family"], effects: [request("POST", "/groups", 201)])
        let groupId = try #require(device.phone().groups.first?.groupId)
        #expect(throws: DeviceError.refused(
            reason: "groupCreator",
            message: "nothing was deleted: this user created Family (\(groupId)), and the server keeps a group's creator "
                + "(groups.creator_id has no ON DELETE). Leaving the group does not release it; the group must be "
                + "deleted first (the seed's DELETE /groups/:id, not offered by this port)")
        ) { try device.intent("data.delete", effects: [request("DELETE", "/users/me", 500)]) }
        #expect(try device.phone().user == "alice" && device.phone().groups.count == 1)
    }
}

extension TestDevice {
    /// iOS, offline: a lock recorded, its sync failing.
    func lockRecorded(offline: Bool) throws {
        try send(.lock, effects: [locked, ran(.lock), recorded(.lock), offline ? syncOffline : syncRequest])
    }
}
