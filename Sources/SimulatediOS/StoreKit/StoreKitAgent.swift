import ExtensionSandbox

/// A StoreKit 2 product, as App Store Connect would serve it.
public struct StoreProduct: Sendable, Hashable, Codable {
    public let id: String
    public let displayPrice: String

    public init(id: String, displayPrice: String) {
        self.id = id
        self.displayPrice = displayPrice
    }
}

/// A transaction in the simulated App Store: what was bought, and whether it still entitles.
public struct StoreTransaction: Sendable, Hashable, Codable {
    public let id: Int
    public let productID: String
    public let purchaseT: Double
    public var revoked: Bool
    public var expired: Bool

    public var entitles: Bool { !revoked && !expired }
}

/// StoreKit 2 for the device: the app's products, its transactions, `currentEntitlements`,
/// and `Transaction.updates` delivered to the app. Driven by the `storekit.*` events.
@_spi(Host) public actor StoreKitAgent: WorldActor {
    @_spi(Host) public nonisolated let executor: WorldActorExecutor
    let trace: DeviceTrace
    private let clock: VirtualClock
    @_spi(Host) public private(set) var products: [StoreProduct] = []
    @_spi(Host) public private(set) var transactions: [StoreTransaction] = []
    private var updates: (@Sendable (StoreTransaction) async -> Void)?

    @_spi(Host) public init(executor: WorldActorExecutor, trace: DeviceTrace, clock: VirtualClock) {
        self.executor = executor
        self.trace = trace
        self.clock = clock
    }

    @_spi(Host) public func configure(products: [StoreProduct]) { self.products = products }

    @_spi(Host) public func listen(_ handler: @escaping @Sendable (StoreTransaction) async -> Void) { updates = handler }

    @_spi(Host) public func restore(transactions: [StoreTransaction]) { self.transactions = transactions }

    /// A purchase completes: a new transaction that entitles until it expires or is refunded.
    /// Products of one subscription group replace each other (upgrading ends the old one).
    @_spi(Host) public func purchase(_ productID: String) async throws(StoreKitError) {
        guard products.contains(where: { $0.id == productID }) else { throw .productNotFound(productID) }
        for index in transactions.indices where transactions[index].entitles {
            transactions[index].expired = true
        }
        let transaction = StoreTransaction(
            id: transactions.count + 1, productID: productID, purchaseT: clock.now.seconds, revoked: false, expired: false)
        transactions.append(transaction)
        trace.record(.storeKit(transaction: "purchase", product: productID))
        await updates?(transaction)
    }

    @_spi(Host) public func expire(_ productID: String) async throws(StoreKitError) {
        try await end(productID, kind: "expire") { $0.expired = true }
    }

    @_spi(Host) public func refund(_ productID: String) async throws(StoreKitError) {
        try await end(productID, kind: "refund") { $0.revoked = true }
    }

    private func end(_ productID: String, kind: String, _ change: (inout StoreTransaction) -> Void) async throws(StoreKitError) {
        guard let index = transactions.lastIndex(where: { $0.productID == productID && $0.entitles }) else {
            throw .noActiveTransaction(productID)
        }
        change(&transactions[index])
        trace.record(.storeKit(transaction: kind, product: productID))
        await updates?(transactions[index])
    }

    @_spi(Host) public var currentEntitlements: [StoreTransaction] { transactions.filter(\.entitles) }
}

/// Why the simulated App Store refused (reported as -32003 with this reason).
public enum StoreKitError: Error, Equatable, Sendable {
    case productNotFound(String)
    case noActiveTransaction(String)

    public var reason: String {
        switch self {
        case .productNotFound: "productNotFound"
        case .noActiveTransaction: "noActiveTransaction"
        }
    }

    public var message: String {
        switch self {
        case .productNotFound(let id): "StoreKit: no product \(id)"
        case .noActiveTransaction(let id): "StoreKit: no active transaction for \(id)"
        }
    }
}

/// What app code sees of StoreKit 2.
public struct StoreKitServices: Sendable {
    @_spi(Host) public let agent: StoreKitAgent
    @_spi(Host) public let system: SystemAgent

    /// The app's StoreKit configuration (Xcode's `.storekit` file): the products it sells.
    public func configure(products: [StoreProduct]) async {
        await agent.configure(products: products)
    }

    /// `Product.products(for:)`.
    public func products(for ids: [String]) async throws -> [StoreProduct] {
        try CallbackContext.platformCall(VisibleOperation("read", "StoreKit", "products"))
        return await agent.products.filter { ids.contains($0.id) }
    }

    /// `Transaction.currentEntitlements`.
    public func currentEntitlements() async throws -> [StoreTransaction] {
        try CallbackContext.platformCall(VisibleOperation("read", "StoreKit", "currentEntitlements"))
        return await agent.currentEntitlements
    }

    /// `AppStore.sync()`: the simulated store is always in sync.
    public func sync() async throws {
        try CallbackContext.platformCall(VisibleOperation("sync", "StoreKit"))
    }

    /// `Transaction.updates`: `handler` runs in the main app for every purchase, expiry and refund.
    /// What `handler` throws is traced as `app.error` (callback `Transaction.updates`).
    public func listenForTransactions(_ handler: @escaping @Sendable (StoreTransaction) async throws -> Void) async {
        let system = system
        let trace = agent.trace
        await agent.listen { transaction in
            await system.runAsMainApp {
                do { try await handler(transaction) } catch { trace.recordError(error, in: "Transaction.updates") }
            }
        }
    }
}
