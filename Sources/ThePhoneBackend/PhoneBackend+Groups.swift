/// Groups: the seed's `POST /groups`, `POST /groups/:id/join`, `DELETE /groups/:id/leave`
/// ("API Endpoints Summary") over its `groups` and `group_members` tables.
extension PhoneBackend {
    /// What `group.create` answers (docs/apps/thephone.md, "Intents").
    public struct GroupCreated: Codable, Sendable, Equatable {
        public let groupId: String
        public let code: String
    }

    /// A group of at most 50 members with a fresh invite code; its creator is its first member,
    /// role `admin` (a decision, docs/apps/thephone-backend.md, "Decisions where the seed is
    /// silent").
    public mutating func createGroup(
        username: String, name: String, description: String? = nil, isPrivate: Bool = false, now: Int64
    ) throws(PhoneBackendError) -> GroupCreated {
        let creator = try requireUser(username)
        let group = PhoneGroup(
            id: identifiers.next(), name: name, description: description, creatorId: creator.id, isPrivate: isPrivate,
            inviteCode: identifiers.nextInviteCode(), maxMembers: PhoneGroup.defaultMaxMembers, createdAt: now,
            members: [PhoneGroup.Member(userId: creator.id, role: "admin", joinedAt: now)])
        groups[group.id] = group
        return GroupCreated(groupId: group.id, code: group.inviteCode)
    }

    /// Joins the group whose invite code is `code` (public or private).
    @discardableResult
    public mutating func joinGroup(username: String, code: String, now: Int64) throws(PhoneBackendError) -> PhoneGroup {
        guard let group = groups.values.first(where: { $0.inviteCode == code }) else { throw .noSuchGroup }
        return try join(username: username, groupId: group.id, now: now)
    }

    /// Joins the public group `groupId`; a private one is joined by its code only.
    @discardableResult
    public mutating func joinGroup(username: String, groupId: String, now: Int64) throws(PhoneBackendError) -> PhoneGroup {
        guard let group = groups[groupId], !group.isPrivate else { throw .noSuchGroup }
        return try join(username: username, groupId: groupId, now: now)
    }

    /// Leaves `groupId`; the group stays, even empty.
    public mutating func leaveGroup(username: String, groupId: String) throws(PhoneBackendError) {
        let user = try requireUser(username)
        guard let group = groups[groupId] else { throw .noSuchGroup }
        guard group.members.contains(where: { $0.userId == user.id }) else { throw .notMember }
        groups[groupId]?.members.removeAll { $0.userId == user.id }
    }

    /// The group `id`, if any.
    public func group(id: String) -> PhoneGroup? {
        groups[id]
    }

    /// Every group, in creation order.
    public var allGroups: [PhoneGroup] {
        groups.values.sorted { $0.id < $1.id }
    }

    /// The groups `username` is a member of, in creation order.
    public func groups(of username: String) throws(PhoneBackendError) -> [PhoneGroup] {
        let user = try requireUser(username)
        return allGroups.filter { $0.members.contains { $0.userId == user.id } }
    }

    /// A member more, unless already one or the group has `max_members`.
    private mutating func join(username: String, groupId: String, now: Int64) throws(PhoneBackendError) -> PhoneGroup {
        let user = try requireUser(username)
        guard var group = groups[groupId] else { throw .noSuchGroup }
        guard !group.members.contains(where: { $0.userId == user.id }) else { throw .alreadyMember }
        guard group.members.count < group.maxMembers else { throw .groupFull }
        group.members.append(PhoneGroup.Member(userId: user.id, role: "member", joinedAt: now))
        groups[groupId] = group
        return group
    }
}
