import SimulatediOS

/// What an observer may ask of The Phone's backend over the socket (docs/protocol.md, "The Phone's
/// backends"; `backend.<name>`, or `server.call` with `method`): reads that take the backend as
/// it is — none moves its clock, and `leaderboard` computes the seed's query afresh without
/// touching its 5-minute cache (a device's `group.leaderboard` goes through the cache, as the
/// seed's route does) — and a raw client of the seed's sync.
enum PhoneBackendMethods {
    static let all: [ServerMethod<PhoneBackend>] = [
        .read("now", params: NoParams.self) { backend, _, context in
            Now(backend: context.instance, time: Timestamps.iso(backend.clock), timestamp: backend.clock)
        },
        .read("users", params: NoParams.self) { backend, _, _ in
            backend.allUsers.sorted { $0.username < $1.username }.map {
                User(
                    username: $0.username, devices: $0.devices, timezone: $0.timezone, platform: $0.platform,
                    trackingStatus: $0.trackingStatus.rawValue)
            }
        },
        .read("events", params: Whose.self) { backend, whose, context throws(ServerCallError) in
            let username = try whose.username(in: backend, context)
            return ((try? backend.events(of: username)) ?? []).map {
                Event(
                    id: $0.id, clientId: $0.clientId, eventType: $0.eventType.rawValue, timestamp: $0.timestamp,
                    time: Timestamps.iso($0.timestamp), source: $0.source, createdAt: Timestamps.iso($0.createdAt))
            }
        },
        .read("scores", params: Whose.self) { backend, whose, context throws(ServerCallError) in
            let username = try whose.username(in: backend, context)
            return ((try? backend.weeklyScores(of: username)) ?? []).map {
                Score(
                    weekStart: $0.weekStart, totalPoints: $0.totalPoints, streakCount: $0.streakCount,
                    longestStreak: $0.longestStreak, calculatedAt: Timestamps.iso($0.calculatedAt))
            }
        },
        .read("groups", params: NoParams.self) { backend, _, _ in
            backend.allGroups.map { group in
                Group(
                    groupId: group.id, name: group.name, code: group.inviteCode, isPrivate: group.isPrivate, maxMembers: group.maxMembers,
                    members: group.members.map { member in
                        Member(user: backend.allUsers.first { $0.id == member.userId }?.username ?? member.userId, role: member.role)
                    })
            }
        },
        .read("leaderboard", params: GroupParams.self) { backend, params, context throws(ServerCallError) in
            do {
                return try backend.calculateLeaderboard(groupId: params.group, now: backend.clock)
            } catch {
                throw .invalidParams(field: "group", reason: "no group \(params.group) on backend \(context.instance)")
            }
        },
        .write("sync", params: SyncParams.self) { backend, params, context throws(ServerCallError) in
            for (index, event) in params.events.enumerated() where !SyncRequest.Event.sources.contains(event.source) {
                throw .invalidParams(field: "events[\(index)].source", reason: "one of \(SyncRequest.Event.sources.joined(separator: ", "))")
            }
            do throws(PhoneBackendError) {
                return try backend.syncEvents(
                    username: params.user,
                    request: SyncRequest(events: params.events, lastSync: params.lastSync ?? 0, clientTime: backend.clock), now: backend.clock)
            } catch .noSuchUser {
                throw .invalidParams(field: "user", reason: "no user \(params.user) on backend \(context.instance)")
            } catch {
                throw .invalidParams(field: "events", reason: error.rawValue)
            }
        },
    ]

    private struct NoParams: Decodable {}

    /// A user named directly, or as the one signed in on a device.
    private struct Whose: Decodable {
        var device: String?
        var user: String?

        /// The user named, or signed in on `device` on the backend called (the device itself
        /// talks to the context's `deviceInstance`).
        func username(in backend: PhoneBackend, _ context: ServerCallContext) throws(ServerCallError) -> String {
            if user != nil, device != nil {
                throw .invalidParams(field: "device", reason: "give device or user, not both")
            }
            if let user {
                guard backend.user(named: user) != nil else { throw .invalidParams(field: "user", reason: "no user \(user)") }
                return user
            }
            guard let device else { throw .invalidParams(field: "device", reason: "give device or user") }
            guard let signedIn = backend.user(signedInOn: device) else {
                let name = context.instance
                let elsewhere = context.deviceInstance.flatMap { $0 == name ? nil : " (device \(device) talks to backend \($0))" } ?? ""
                throw .invalidParams(field: "device", reason: "no user is signed in on device \(device) on backend \(name)" + elsewhere)
            }
            return signedIn.username
        }
    }

    private struct GroupParams: Decodable {
        var group: String
    }

    private struct SyncParams: Decodable {
        var user: String
        var events: [SyncRequest.Event]
        var lastSync: Int64?
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
