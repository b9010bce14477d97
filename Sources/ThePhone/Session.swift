import SimulatediOS

/// Who the device is signed in as (the seed's `/auth/*`; its JWT pair is not simulated: the server
/// knows the calling device). Every device signs up at its first launch as a user named after it (a
/// choice, docs/apps/thephone.md, "Accounts"), until the server answers; `account.signUp` /
/// `signIn` move it to another user, `data.delete` signs it out.
actor Session: WorldActor {
    nonisolated let executor: WorldActorExecutor
    private let revision: DataRevision
    /// The user signed in on this device, nil when signed out.
    private(set) var username: String?
    /// The first launch's sign-up has not been answered yet (offline, say): it is tried again
    /// at the next launch, when the app becomes active and (iOS) when the network comes back.
    private(set) var needsSignUp = true

    init(executor: WorldActorExecutor, revision: DataRevision) {
        self.executor = executor
        self.revision = revision
    }

    func signedIn(as username: String) {
        self.username = username
        needsSignUp = false
        revision.bump()
    }

    /// Signed out (`data.delete`), or the first sign-up refused (`usernameTaken`): the user
    /// signs up or in by hand.
    func signedOut() {
        username = nil
        needsSignUp = false
        revision.bump()
    }

    /// What the snapshot keeps.
    struct Saved: Codable, Sendable, Equatable {
        let username: String?
        let needsSignUp: Bool
    }

    var saved: Saved { Saved(username: username, needsSignUp: needsSignUp) }

    func restore(_ saved: Saved) {
        username = saved.username
        needsSignUp = saved.needsSignUp
    }
}
