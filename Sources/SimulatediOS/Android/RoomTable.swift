import ExtensionSandbox
import Foundation

/// A row a ``RoomTable`` holds: `Codable`, with the primary key as its `id`.
public typealias RoomRow = Codable & Sendable & Identifiable<String>

/// A Room table (`@Entity` + `@Dao`) of an Android app: rows by primary key, in insertion order.
/// Every DAO call is a platform call (a scheduling point: the seed's `suspend fun`s), and throws
/// `CancellationError` inside a cancelled WorkManager run. The rows are the app's own data: the
/// app saves ``contents()`` with its persistent data and gives them back with ``restore(_:)``;
/// each change bumps the app's ``DataRevision``.
public actor RoomTable<Row: RoomRow>: WorldActor {
    public nonisolated let executor: WorldActorExecutor
    private let name: String
    private let revision: DataRevision
    private var rows: [Row] = []

    /// The table `name` on `platform`, whose changes bump `revision`.
    public init(_ name: String, on platform: Platform, revision: DataRevision) {
        self.executor = platform.world.makeExecutor(label: "room.\(name)")
        self.name = name
        self.revision = revision
    }

    /// `@Insert(onConflict = OnConflictStrategy.REPLACE)`: a row with the same id is replaced in place.
    public func insert(_ row: Row) throws {
        try Self.call("insert", name)
        if let index = rows.firstIndex(where: { $0.id == row.id }) {
            rows[index] = row
        } else {
            rows.append(row)
        }
        revision.bump()
    }

    /// A `@Query` that reads: the rows `isIncluded` keeps, in insertion order.
    public func select(where isIncluded: @Sendable (Row) -> Bool = { _ in true }) throws -> [Row] {
        try Self.call("select", name)
        return rows.filter(isIncluded)
    }

    /// A `@Query` that updates one row by primary key; false when there is none.
    @discardableResult
    public func update(id: String, _ change: @Sendable (inout Row) -> Void) throws -> Bool {
        try Self.call("update", name)
        guard let index = rows.firstIndex(where: { $0.id == id }) else { return false }
        change(&rows[index])
        revision.bump()
        return true
    }

    /// A `@Query("DELETE …")` of every row.
    public func deleteAll() throws {
        try Self.call("delete", name)
        rows.removeAll()
        revision.bump()
    }

    /// Every row, for the app's persistent data (not a DAO call: no scheduling point).
    public func contents() -> [Row] { rows }

    /// Puts back rows saved by ``contents()`` (before the app launches).
    public func restore(_ saved: [Row]) { rows = saved }

    private static func call(_ verb: String, _ table: String) throws {
        try WorkRun.checkCancellation()
        try CallbackContext.platformCall(VisibleOperation(verb, "room", table))
    }
}
