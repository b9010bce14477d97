import ExtensionSandbox
import Foundation

/// What `JSONEncoder().encode(token)` gives for an app's `ApplicationToken`: the data apps derive
/// keys from (an app's `tokenId`, seed 004's "Token Identifier Mismatch" fix).
///
/// The simulated SDK's token is the app's bundle id (docs/sdk.md), so its data is the bundle id's
/// UTF-8 bytes: the same in every process, every launch. With the quirk `unstableTokens`
/// (developers report token data changing, FB18061981) the data also carries who encodes it: the
/// main app, or an extension's process and launch: the same app's token encodes differently in the
/// main app, in each extension and after each relaunch, while tokens still compare equal. A key
/// derived from the data then matches nothing another process stored (docs/platform.md, Quirks).
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
@_spi(Host) public final class ApplicationTokenCodec: @unchecked Sendable {
    private let lock = NSLock()
    private var unstable = false

    @_spi(Host) public init() {}

    @_spi(Host) public func configure(unstable: Bool) {
        lock.lock()
        defer { lock.unlock() }
        self.unstable = unstable
    }

    func encoded(_ application: String) -> Data {
        lock.lock()
        let unstable = self.unstable
        lock.unlock()
        guard unstable else { return Data(application.utf8) }
        // The main app (and the system reading for it) encodes one way; each extension launch its own.
        let process = CallbackContext.current.map(\.process).flatMap { $0.contains("#") ? $0 : nil } ?? "app"
        return Data("\(application)#\(process)".utf8)
    }
}
