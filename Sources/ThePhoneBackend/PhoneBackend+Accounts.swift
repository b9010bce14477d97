import Foundation

/// Accounts: the seed's `/auth/register`, `/auth/login`, `/auth/logout` and
/// `PUT /users/me/tracking-status` ("API Endpoints Summary"), with the devices signed in to a user
/// (docs/apps/thephone.md, "Accounts").
extension PhoneBackend {
    /// A new user, `pending` (seed: `tracking_status … DEFAULT 'pending'`), with `device` signed in.
    @discardableResult
    public mutating func register(
        username: String, device: String, timezone: String, platform: String, now: Int64
    ) throws(PhoneBackendError) -> PhoneUser {
        guard user(named: username) == nil else { throw .usernameTaken }
        guard TimeZone(identifier: timezone) != nil else { throw .unknownTimeZone }
        signOut(device: device)
        let user = PhoneUser(
            id: identifiers.next(), username: username, email: username + "@thephone.invalid", timezone: timezone,
            platform: platform, trackingStatus: .pending, createdAt: now, devices: [device])
        users[user.id] = user
        return user
    }

    /// Signs `device` in to the existing user `username`, out of any other (a device holds one
    /// account at a time).
    @discardableResult
    public mutating func login(username: String, device: String) throws(PhoneBackendError) -> PhoneUser {
        let id = try requireUser(username).id
        signOut(device: device)
        users[id]?.devices.append(device)
        return try requireUser(username)
    }

    /// Signs `device` out of whichever user it is signed in to.
    public mutating func logout(device: String) {
        signOut(device: device)
    }

    /// The seed's `PUT /users/me/tracking-status`.
    public mutating func updateTrackingStatus(username: String, status: PhoneUser.TrackingStatus) throws(PhoneBackendError) {
        let id = try requireUser(username).id
        users[id]?.trackingStatus = status
    }

    /// The user named `username`, if any.
    public func user(named username: String) -> PhoneUser? {
        users.values.first { $0.username == username }
    }

    /// The user `device` is signed in to, if any.
    public func user(signedInOn device: String) -> PhoneUser? {
        users.values.first { $0.devices.contains(device) }
    }

    /// Every user, by username.
    public var allUsers: [PhoneUser] {
        users.values.sorted { $0.username < $1.username }
    }

    func requireUser(_ username: String) throws(PhoneBackendError) -> PhoneUser {
        guard let user = user(named: username) else { throw .noSuchUser }
        return user
    }

    private mutating func signOut(device: String) {
        for id in users.keys {
            users[id]?.devices.removeAll { $0 == device }
        }
    }
}
