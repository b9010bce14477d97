import Foundation
import SimulatediOS

/// The Phone's HTTP API (seed 001, "API Endpoints Summary") over a ``PhoneBackend``: decodes a
/// request's JSON, calls the seed's service, encodes its answer. The caller is the device the
/// request came from (the simulated network knows it, as a TLS session with the user's token
/// would): `me` is the user signed in on it. docs/apps/thephone.md lists the routes and bodies.
///
/// Errors answer `{"error": <reason>}` (the reasons docs/apps/thephone.md, "Intents", names) with
/// the status the seed's route would: 400 bad input, 401 not signed in, 403 not a member, 404
/// unknown, 409 a conflict, 500 the seed's failed transaction (`groupCreator`).
struct PhoneBackendRoutes {
    let device: String
    let timezone: String
    let platform: String

    /// The routes as `caller` reaches them.
    init(_ caller: ServerCaller) {
        device = caller.device
        timezone = caller.timezone
        platform = caller.platform
    }

    /// Serves `request` on `backend` at the backend's clock. A request refused at the door — no
    /// such route, a body that does not decode, or no user signed in on the device — is refused
    /// before any change: every route checks those first, so the backend is as it was.
    func serve(_ request: NetworkRequest, on backend: inout PhoneBackend) -> ServedRequest {
        do {
            return ServedRequest(response: try respond(to: request, on: &backend))
        } catch let error as PhoneBackendError {
            return ServedRequest(response: failure(Self.status(of: error), error.rawValue))
        } catch let refusal as Refusal {
            return ServedRequest(response: failure(refusal.status, refusal.reason), refusedBeforeAnyChange: true)
        } catch {
            return ServedRequest(response: failure(400, "badRequest"), refusedBeforeAnyChange: true)
        }
    }

    private func respond(to request: NetworkRequest, on backend: inout PhoneBackend) throws -> HTTPResponse {
        let now = backend.clock
        var parts = request.path.split(separator: "/").map(String.init)
        // `/groups/:id/…`: the id apart, the route by its pattern.
        let id = parts.count == 3 && parts[0] == "groups" ? parts[1] : ""
        if !id.isEmpty { parts[1] = ":id" }
        switch request.httpMethod + " /" + parts.joined(separator: "/") {
        case "POST /auth/register":
            let body = try decode(Register.self, request)
            let user = try backend.register(
                username: body.username ?? device, device: device, timezone: body.timezone ?? timezone,
                platform: body.platform ?? platform, now: now)
            return answer(201, Account(user))
        case "POST /auth/login":
            let body = try decode(Login.self, request)
            return answer(200, Account(try backend.login(username: body.username, device: device)))
        case "POST /auth/logout":
            backend.logout(device: device)
            return answer(200, Empty())
        case "POST /events/sync":
            let body = try decode(SyncRequest.self, request)
            return answer(200, try backend.syncEvents(username: try me(backend), request: body, now: now))
        case "PUT /users/me/tracking-status":
            let body = try decode(TrackingStatusUpdate.self, request)
            try backend.updateTrackingStatus(username: try me(backend), status: body.status)
            return answer(200, Empty())
        case "GET /users/me/export":
            return answer(200, try backend.exportUserData(username: try me(backend), now: now))
        case "DELETE /users/me":
            return answer(200, try backend.deleteUserData(username: try me(backend)))
        case "POST /groups":
            let body = try decode(NewGroup.self, request)
            let created = try backend.createGroup(
                username: try me(backend), name: body.name, description: body.description, isPrivate: body.isPrivate ?? false,
                now: now)
            return answer(201, created)
        case "GET /groups":
            let username = try me(backend)
            return answer(200, try backend.groups(of: username).map { Membership($0, of: username, in: backend) })
        case "POST /invites/redeem":
            let username = try me(backend)
            let group = try backend.joinGroup(username: username, code: try decode(Redeem.self, request).code, now: now)
            return answer(200, Membership(group, of: username, in: backend))
        case "POST /groups/:id/join":
            let username = try me(backend)
            return answer(200, Membership(try backend.joinGroup(username: username, groupId: id, now: now), of: username, in: backend))
        case "DELETE /groups/:id/leave":
            try backend.leaveGroup(username: try me(backend), groupId: id)
            return answer(200, Empty())
        case "GET /groups/:id/leaderboard":
            return answer(200, try backend.groupLeaderboard(username: try me(backend), groupId: id, now: now))
        case "PUT /temptations/settings":
            let body = try decode(TemptationSettingsUpdate.self, request)
            try backend.updateTemptationSettings(
                username: try me(backend), enabled: body.enabled, intensity: body.intensity, quietStart: body.quietStart,
                quietEnd: body.quietEnd, now: now)
            return answer(200, Empty())
        default:
            throw Refusal(status: 404, reason: "notFound")
        }
    }

    /// The user signed in on the calling device.
    private func me(_ backend: PhoneBackend) throws -> String {
        guard let user = backend.user(signedInOn: device) else { throw Refusal(status: 401, reason: "notSignedIn") }
        return user.username
    }

    private func decode<Body: Decodable>(_ type: Body.Type, _ request: NetworkRequest) throws -> Body {
        try JSONDecoder().decode(type, from: request.httpBody ?? Data("{}".utf8))
    }

    private func answer(_ status: Int, _ body: some Encodable) -> HTTPResponse {
        HTTPResponse(statusCode: status, body: (try? Self.encoder.encode(body)) ?? Data("{}".utf8))
    }

    private func failure(_ status: Int, _ reason: String) -> HTTPResponse {
        answer(status, ["error": reason])
    }

    /// Sorted keys: what a server answers is traced and journalled, byte for byte the same every run.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    static func status(of error: PhoneBackendError) -> Int {
        switch error {
        case .invalidQuietHours, .invalidClientId, .unknownTimeZone: 400
        case .notMember: 403
        case .noSuchUser, .noSuchGroup: 404
        case .usernameTaken, .alreadyMember, .groupFull: 409
        case .groupCreator: 500
        }
    }

    private struct Refusal: Error {
        let status: Int
        let reason: String
    }

    private struct Empty: Encodable {}

    /// Every field optional: the calling device's name, time zone and platform by default
    /// (docs/apps/thephone.md, "Accounts": a device signs up as a user named after it).
    private struct Register: Decodable {
        let username: String?
        let timezone: String?
        let platform: String?
    }

    private struct Login: Decodable {
        let username: String
    }

    private struct TrackingStatusUpdate: Decodable {
        let status: PhoneUser.TrackingStatus
    }

    private struct NewGroup: Decodable {
        let name: String
        let description: String?
        let isPrivate: Bool?
    }

    private struct Redeem: Decodable {
        let code: String
    }

    private struct TemptationSettingsUpdate: Decodable {
        let enabled: Bool
        let intensity: TemptationSettings.Intensity
        let quietStart: String?
        let quietEnd: String?
    }

    /// `{"user": {"id","username","timezone","platform","trackingStatus"}}`.
    private struct Account: Encodable {
        struct User: Encodable {
            let id: String
            let username: String
            let timezone: String
            let platform: String
            let trackingStatus: String
        }

        let user: User

        init(_ user: PhoneUser) {
            self.user = User(
                id: user.id, username: user.username, timezone: user.timezone, platform: user.platform,
                trackingStatus: user.trackingStatus.rawValue)
        }
    }

    /// A group as its member sees it: `{"groupId","name","code","role"}` (`groups` in
    /// docs/apps/thephone.md#devicestateapp).
    private struct Membership: Encodable {
        let groupId: String
        let name: String
        let code: String
        let role: String

        init(_ group: PhoneGroup, of username: String, in backend: PhoneBackend) {
            let userId = backend.user(named: username)?.id
            groupId = group.id
            name = group.name
            code = group.inviteCode
            role = group.members.first { $0.userId == userId }?.role ?? "member"
        }
    }
}
