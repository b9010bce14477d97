import Foundation
import SimulatediOS

/// The seed's `ApiClient`: JSON over HTTPS to `api.thephone.app`, through the device's
/// `URLSession` (``NetworkSession``). The simulated server knows the calling device (a TLS
/// session with the user's token would tell it), so no token is sent.
///
/// Failures become the refusals docs/apps/thephone.md, "Intents", names (`DeviceError.refused`,
/// -32003): no internet (`URLError.notConnectedToInternet`) ⇒ `offline`; a host nobody answers ⇒
/// `unreachable`; a status ≥ 400 ⇒ the server's `{"error": reason}` (`usernameTaken`,
/// `noSuchGroup`, `notSignedIn`…). A cancelled WorkManager run's `CancellationError` passes through
/// untouched.
struct APIClient: Sendable {
    let platform: Platform

    // MARK: - Accounts (`/auth/*`)

    /// `POST /auth/register`: `{}` signs up as the device's name, zone and platform
    /// (docs/apps/thephone.md, "Accounts").
    func register(username: String?) async throws -> AccountResponse {
        try await send("POST", "/auth/register", RegisterBody(username: username))
    }

    /// `POST /auth/login`: this device joins an existing user.
    func login(username: String) async throws -> AccountResponse {
        try await send("POST", "/auth/login", LoginBody(username: username))
    }

    // MARK: - Events

    /// `POST /events/sync` (the seed's `ApiClient.syncEvents(events, lastSync)`).
    func syncEvents(events: [SyncEventsRequest.Event], lastSync: Int64) async throws -> SyncEventsResponse {
        try await send(
            "POST", "/events/sync", SyncEventsRequest(events: events, lastSync: lastSync, clientTime: platform.currentTimeMillis))
    }

    // MARK: - The user

    /// `PUT /users/me/tracking-status`.
    func updateTrackingStatus(_ status: TrackingStatusUpdate.Status) async throws {
        let _: JSONBody = try await send("PUT", "/users/me/tracking-status", TrackingStatusUpdate(status: status))
    }

    /// `GET /users/me/export` (the seed's `exportUserData`), as the server wrote it.
    func exportUserData() async throws -> JSONBody {
        try await send("GET", "/users/me/export", Optional<RegisterBody>.none)
    }

    /// `DELETE /users/me` (the seed's `deleteUserData`).
    func deleteUser() async throws -> DeleteResponse {
        try await send("DELETE", "/users/me", Optional<RegisterBody>.none)
    }

    // MARK: - Groups

    /// `POST /groups`.
    func createGroup(name: String, description: String?, isPrivate: Bool?) async throws -> CreatedGroup {
        try await send("POST", "/groups", NewGroupBody(name: name, description: description, isPrivate: isPrivate))
    }

    /// `GET /groups`: the user's memberships.
    func groups() async throws -> [GroupMembership] {
        try await send("GET", "/groups", Optional<RegisterBody>.none)
    }

    /// `POST /invites/redeem`: joins the group of an invite code.
    func redeem(code: String) async throws -> GroupMembership {
        try await send("POST", "/invites/redeem", RedeemBody(code: code))
    }

    /// `POST /groups/:id/join`: joins a public group by id.
    func join(groupId: String) async throws -> GroupMembership {
        try await send("POST", "/groups/\(groupId)/join", Optional<RegisterBody>.none)
    }

    /// `DELETE /groups/:id/leave`.
    func leave(groupId: String) async throws {
        let _: JSONBody = try await send("DELETE", "/groups/\(groupId)/leave", Optional<RegisterBody>.none)
    }

    /// `GET /groups/:id/leaderboard`.
    func leaderboard(groupId: String) async throws -> [LeaderboardEntry] {
        try await send("GET", "/groups/\(groupId)/leaderboard", Optional<RegisterBody>.none)
    }

    // MARK: - Temptations

    /// `PUT /temptations/settings`.
    func updateTemptationSettings(_ settings: TemptationSettingsUpdate) async throws {
        let _: JSONBody = try await send("PUT", "/temptations/settings", settings)
    }

    // MARK: - The exchange

    /// Sorted keys: what the app sends is traced and journalled, the same bytes every run.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private func send<Body: Encodable, Answer: Decodable>(_ method: String, _ path: String, _ body: Body?) async throws
        -> Answer
    {
        let request = NetworkRequest(
            url: ThePhoneKeys.apiBaseURL + path, httpMethod: method, httpBody: try body.map { try Self.encoder.encode($0) })
        let response: HTTPResponse
        do {
            response = try await platform.urlSession.data(for: request)
        } catch let error as URLError where error.code == .notConnectedToInternet {
            throw DeviceError.refused(reason: "offline", message: "\(method) \(path): the device is offline")
        } catch let error as URLError {
            throw DeviceError.refused(reason: "unreachable", message: "\(method) \(path): \(error.code)")
        }
        guard response.statusCode < 400 else {
            let reason = (try? JSONDecoder().decode(ServerError.self, from: response.body))?.error ?? "http\(response.statusCode)"
            throw DeviceError.refused(reason: reason, message: "\(method) \(path) answered \(response.statusCode) (\(reason))")
        }
        return try JSONDecoder().decode(Answer.self, from: response.body)
    }
}
