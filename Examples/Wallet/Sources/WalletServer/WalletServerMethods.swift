import SimulatediOS

/// What an observer may ask of a Wallet server over the socket (`server.call --server wallet`):
/// a user's balance, and `grant`, minutes given by hand (a support agent's write, journalled as a
/// request is).
enum WalletServerMethods {
    static let all: [ServerMethod<WalletServer>] = [
        .read("balance", params: Who.self) { server, who, _ in
            UserBalance(user: who.user, balance: server.balance(of: who.user))
        },
        .read("users", params: NoParams.self) { server, _, _ in
            server.balances.keys.sorted().map { UserBalance(user: $0, balance: server.balance(of: $0)) }
        },
        .write("grant", params: Grant.self) { server, grant, _ throws(ServerCallError) in
            let range = WalletRoutes.minutesPerEarning
            guard range.contains(grant.minutes) else {
                throw .invalidParams(field: "minutes", reason: "a whole number of minutes, \(range.lowerBound) to \(range.upperBound)")
            }
            let total = min(server.balance(of: grant.user) + grant.minutes, WalletServer.maxBalance)
            server.setBalance(total, of: grant.user)
            return UserBalance(user: grant.user, balance: total)
        },
    ]

    private struct NoParams: Decodable {}

    /// The user: the name of the device whose wallet it is.
    private struct Who: Decodable {
        let user: String
    }

    private struct Grant: Decodable {
        let user: String
        let minutes: Int
    }

    private struct UserBalance: Encodable {
        let user: String
        let balance: Int
    }
}
