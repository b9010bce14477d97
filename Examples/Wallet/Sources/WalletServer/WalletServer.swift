import Foundation
import SimulatediOS

/// Wallet's server: each user's balance of minutes, the user being the device that calls (as a
/// session token would name it). A deterministic value: the host keeps it, journals every change
/// and brings it back after `kill -9` (the SDK's `AppServer`).
///
/// Its API (``WalletRoutes``): `GET /balance`, `POST /earn {"minutes"}`, `POST /spend
/// {"minutes"}` (409 when the balance is short) and `PUT /balance {"balance"}`, the write-back
/// of the first client, which reads, adds and writes the total.
public struct WalletServer: AppServer {
    /// The instance's name (`default`, or the device config's `backend`).
    public let instance: String
    public private(set) var clock: Int64
    /// Minutes per user; a user appears on their first request.
    public private(set) var balances: [String: Int]

    /// The most a balance may hold: ten years of whole days of minutes, far beyond any use, so
    /// that no sum of earnings overflows.
    public static let maxBalance = 5_256_000

    public init(instance: String, now: Int64) {
        self.instance = instance
        clock = now
        balances = [:]
    }

    private enum CodingKeys: String, CodingKey { case instance, clock, balances }

    /// A snapshot or journal read back from disk: a balance outside `0...maxBalance` (a damaged
    /// file that is still JSON) is refused, named, rather than served.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        instance = try container.decode(String.self, forKey: .instance)
        clock = try container.decode(Int64.self, forKey: .clock)
        balances = try container.decode([String: Int].self, forKey: .balances)
        if let (user, minutes) = balances.first(where: { !(0...Self.maxBalance).contains($0.value) }) {
            throw DecodingError.dataCorruptedError(
                forKey: .balances, in: container,
                debugDescription: "\(user)'s balance \(minutes) is outside 0...\(Self.maxBalance)")
        }
    }

    public mutating func advance(to now: Int64) -> ServerJobs {
        clock = max(clock, now)
        return ServerJobs()
    }

    public mutating func serve(_ request: NetworkRequest, from caller: ServerCaller) -> ServedRequest {
        WalletRoutes(user: caller.device).serve(request, on: &self)
    }

    public static var methods: [ServerMethod<WalletServer>] { WalletServerMethods.all }

    /// `user`'s balance, 0 for a user never seen.
    public func balance(of user: String) -> Int { balances[user] ?? 0 }

    /// Sets `user`'s balance (within `0...maxBalance`, which the callers check).
    mutating func setBalance(_ minutes: Int, of user: String) {
        balances[user] = minutes
    }

    /// `server.list`'s row: how many users, and the minutes they hold between them.
    public var summary: Summary {
        Summary(users: balances.count, minutes: balances.values.reduce(0, +))
    }

    public struct Summary: Encodable, Sendable {
        let users: Int
        let minutes: Int
    }
}

extension ServerRegistration {
    /// Wallet's server as its app brings it: `api.wallet.example`, each request taking 50–300 ms
    /// of virtual time (the default: a phone on a good network), its instances under
    /// `<state dir>/servers/wallet/`.
    public static let wallet = ServerRegistration(WalletServer.self, name: "wallet", hosts: ["api.wallet.example"])
}
