import ControlProtocol
import DeviceActors
import Foundation
import ThePhoneBackend

/// `backend.*` (docs/protocol.md, "The Phone's backends"): The Phone's backends as an observer sees
/// them, and a raw client of the seed's sync. Reads take the backend's lock for a moment; none
/// moves its clock, and `backend.leaderboard` computes the seed's query afresh without touching its
/// 5-minute cache (a device's `group.leaderboard` goes through the cache, as the seed's route
/// does). `backend.events` and `backend.scores` given a `device` read the backend that device talks
/// to (its `config.backend`) unless `backend` names one; they run off the event loop, since finding
/// a device's backend waits for its lane.
struct BackendMethods: Sendable {
    let store: BackendStore
    /// The devices, asked which backend one talks to.
    let devices: DeviceService

    /// `backend.list`.
    func list(_ params: JSONValue?) throws -> JSONValue {
        _ = try decodeParams(NoParams.self, params)
        return try JSONWire.value(
            store.servers.all.map { host in
                host.read { backend in
                    Listed(backend: host.name, now: Timestamps.iso(backend.clock), users: backend.allUsers.count, groups: backend.allGroups.count)
                }
            })
    }

    /// `backend.now`.
    func now(_ params: JSONValue?) throws -> JSONValue {
        let host = try backend(decodeParams(Named.self, params).backend)
        let clock = host.read(\.clock)
        return try JSONWire.value(Now(backend: host.name, time: Timestamps.iso(clock), timestamp: clock))
    }

    /// `backend.users`.
    func users(_ params: JSONValue?) throws -> JSONValue {
        let host = try backend(decodeParams(Named.self, params).backend)
        return try JSONWire.value(
            host.read { backend in
                backend.allUsers.sorted { $0.username < $1.username }.map {
                    User(
                        username: $0.username, devices: $0.devices, timezone: $0.timezone, platform: $0.platform,
                        trackingStatus: $0.trackingStatus.rawValue)
                }
            })
    }

    /// `backend.events`: the user's (or device's user's) events by timestamp.
    func events(_ params: JSONValue?) throws -> JSONValue {
        let request = try decodeParams(Whose.self, params)
        let (host, deviceBackend) = try backend(for: request)
        return try JSONWire.value(
            try host.read { backend throws(RPCError) in
                let username = try request.username(in: backend, named: host.name, deviceBackend: deviceBackend)
                return ((try? backend.events(of: username)) ?? []).map {
                    Event(
                        id: $0.id, clientId: $0.clientId, eventType: $0.eventType.rawValue, timestamp: $0.timestamp,
                        time: Timestamps.iso($0.timestamp), source: $0.source, createdAt: Timestamps.iso($0.createdAt))
                }
            })
    }

    /// `backend.scores`: the user's weekly score rows by week.
    func scores(_ params: JSONValue?) throws -> JSONValue {
        let request = try decodeParams(Whose.self, params)
        let (host, deviceBackend) = try backend(for: request)
        return try JSONWire.value(
            try host.read { backend throws(RPCError) in
                let username = try request.username(in: backend, named: host.name, deviceBackend: deviceBackend)
                return ((try? backend.weeklyScores(of: username)) ?? []).map {
                    Score(
                        weekStart: $0.weekStart, totalPoints: $0.totalPoints, streakCount: $0.streakCount,
                        longestStreak: $0.longestStreak, calculatedAt: Timestamps.iso($0.calculatedAt))
                }
            })
    }

    /// `backend.groups`.
    func groups(_ params: JSONValue?) throws -> JSONValue {
        let host = try backend(decodeParams(Named.self, params).backend)
        return try JSONWire.value(
            host.read { backend in
                backend.allGroups.map { group in
                    Group(
                        groupId: group.id, name: group.name, code: group.inviteCode, isPrivate: group.isPrivate,
                        maxMembers: group.maxMembers,
                        members: group.members.map { member in
                            Member(user: backend.allUsers.first { $0.id == member.userId }?.username ?? member.userId, role: member.role)
                        })
                }
            })
    }

    /// `backend.leaderboard`: the seed's query for `group` at the backend's clock.
    func leaderboard(_ params: JSONValue?) throws -> JSONValue {
        let request = try decodeParams(GroupParams.self, params)
        let host = try backend(request.backend)
        return try JSONWire.value(
            try host.read { backend throws(RPCError) in
                do {
                    return try backend.calculateLeaderboard(groupId: request.group, now: backend.clock)
                } catch {
                    throw RPCError.invalidParams(field: "group", reason: "no group \(request.group) on backend \(host.name)")
                }
            })
    }

    /// `backend.sync`: a raw client of `POST /events/sync` for `user`, at the backend's clock;
    /// saved before the answer, as a device's sync is.
    func sync(_ params: JSONValue?) throws -> JSONValue {
        let request = try decodeParams(SyncParams.self, params)
        for (index, event) in request.events.enumerated() where !SyncRequest.Event.sources.contains(event.source) {
            throw RPCError.invalidParams(
                field: "events[\(index)].source", reason: "one of \(SyncRequest.Event.sources.joined(separator: ", "))")
        }
        let host = try backend(request.backend)
        let response: SyncResponse
        do {
            response = try host.sync(user: request.user, events: request.events, lastSync: request.lastSync ?? 0)
        } catch .noSuchUser {
            throw RPCError.invalidParams(field: "user", reason: "no user \(request.user) on backend \(host.name)")
        } catch {
            throw RPCError.invalidParams(field: "events", reason: error.rawValue)
        }
        do {
            try store.saveChanged()
        } catch {
            throw RPCError.storageFailed("backend \(host.name) could not be saved", reason: "\(error)")
        }
        return try JSONWire.value(response)
    }

    /// The backend a request for a device's or a user's rows reads: the one `backend` names,
    /// else the one its `device` talks to, else `default`; and the backend of that device, when
    /// it has one (to say so when it is not the one read).
    private func backend(for request: Whose) throws(RPCError) -> (BackendHost, deviceBackend: String?) {
        let deviceBackend = request.device.flatMap(devices.backend(ofDevice:))
        return (try backend(request.backend ?? deviceBackend), deviceBackend)
    }

    private func backend(_ name: String?) throws(RPCError) -> BackendHost {
        let name = name ?? "default"
        guard let host = store.servers.existing(name) else {
            let known = store.servers.all.map(\.name)
            throw RPCError.invalidParams(
                field: "backend",
                reason: "no backend \(name) (known: \(known.isEmpty ? "none yet: one starts with its first thephone device" : known.joined(separator: ", ")))")
        }
        return host
    }

    private struct Named: Decodable {
        var backend: String?
    }

    /// A user named directly, or as the one signed in on a device.
    private struct Whose: Decodable {
        var backend: String?
        var device: String?
        var user: String?

        /// The user named, or signed in on `device` on `backend` (called `name`; the device
        /// itself talks to `deviceBackend`).
        func username(in backend: PhoneBackend, named name: String, deviceBackend: String?) throws(RPCError) -> String {
            if user != nil, device != nil {
                throw RPCError.invalidParams(field: "device", reason: "give device or user, not both")
            }
            if let user {
                guard backend.user(named: user) != nil else { throw RPCError.invalidParams(field: "user", reason: "no user \(user)") }
                return user
            }
            guard let device else { throw RPCError.invalidParams(field: "device", reason: "give device or user") }
            guard let signedIn = backend.user(signedInOn: device) else {
                let elsewhere = deviceBackend.flatMap { $0 == name ? nil : " (device \(device) talks to backend \($0))" } ?? ""
                throw RPCError.invalidParams(
                    field: "device", reason: "no user is signed in on device \(device) on backend \(name)" + elsewhere)
            }
            return signedIn.username
        }
    }

    private struct GroupParams: Decodable {
        var backend: String?
        var group: String
    }

    private struct SyncParams: Decodable {
        var backend: String?
        var user: String
        var events: [SyncRequest.Event]
        var lastSync: Int64?
    }

    private struct Listed: Encodable {
        let backend: String
        let now: String
        let users: Int
        let groups: Int
    }

    private struct Now: Encodable {
        let backend: String
        let time: String
        let timestamp: Int64
    }

    private struct User: Encodable {
        let username: String
        let devices: [String]
        let timezone: String
        let platform: String
        let trackingStatus: String
    }

    private struct Event: Encodable {
        let id: String
        let clientId: String
        let eventType: String
        let timestamp: Int64
        let time: String
        let source: String
        let createdAt: String
    }

    private struct Score: Encodable {
        let weekStart: String
        let totalPoints: Double
        let streakCount: Int
        let longestStreak: Int
        let calculatedAt: String
    }

    private struct Group: Encodable {
        let groupId: String
        let name: String
        let code: String
        let isPrivate: Bool
        let maxMembers: Int
        let members: [Member]
    }

    private struct Member: Encodable {
        let user: String
        let role: String
    }
}
