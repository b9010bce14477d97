import ExtensionSandbox
import Foundation

/// A system broadcast an Android app can receive (`Intent.ACTION_…`).
public enum BroadcastAction: String, Sendable, Codable, CaseIterable {
    /// `ACTION_USER_PRESENT`: the user unlocked the device (after PIN or biometrics).
    case userPresent = "android.intent.action.USER_PRESENT"
    /// `ACTION_SCREEN_OFF`: the screen turned off (the device locked).
    case screenOff = "android.intent.action.SCREEN_OFF"
}

/// The receivers an Android app declares in its manifest (`<receiver>` with an
/// `<intent-filter>`): kept by the system, so they survive the app's process; each broadcast
/// starts the app's process if needed and runs `onReceive` in it (docs/platform.md#android).
/// Registration is synchronous (no actor hop), so declaring one changes no schedule.
// unchecked: lock-protected: every var is touched only under `lock` (NSLock, which TSan follows; Mutex it cannot see)
@_spi(Host) public final class ManifestReceivers: @unchecked Sendable {
    public typealias Receiver = @Sendable (BroadcastAction) async throws -> Void

    private let lock = NSLock()
    private var receivers: [(actions: Set<BroadcastAction>, onReceive: Receiver)] = []

    public init() {}

    func register(actions: Set<BroadcastAction>, onReceive: @escaping Receiver) {
        lock.withLock { receivers.append((actions, onReceive)) }
    }

    /// Forgets every receiver: the device is let go of, and with it the system that kept them.
    /// A receiver holds the app that declared it, which holds the platform that holds this:
    /// kept, they held the device's whole world (a compaction every few hundred requests left
    /// one behind each time, issue 22).
    @_spi(Host) public func removeAll() {
        lock.withLock { receivers.removeAll() }
    }

    /// The receivers for `action`, in the order they were declared.
    @_spi(Host) public func receivers(for action: BroadcastAction) -> [Receiver] {
        lock.withLock { receivers.filter { $0.actions.contains(action) }.map(\.onReceive) }
    }
}

/// An Android app's manifest, as far as its receivers go.
public struct AndroidManifest: Sendable {
    @_spi(Host) public let receivers: ManifestReceivers
    @_spi(Host) public let kind: DevicePlatform

    /// Declares a `BroadcastReceiver` for `actions` (`<intent-filter>`): `onReceive` runs in the
    /// app's process at each of them. Call it from the app's `launch()`, which stands for the
    /// install: a second declaration adds a second receiver.
    public func registerReceiver(
        actions: Set<BroadcastAction>, onReceive: @escaping @Sendable (BroadcastAction) async throws -> Void
    ) throws {
        try kind.require(.android, "BroadcastReceivers")
        receivers.register(actions: actions, onReceive: onReceive)
    }
}

/// `CoroutineScope(Dispatchers.IO)`: `launch` starts `block` concurrently, in the calling
/// process, and returns at once; under exploration the block interleaves with everything else
/// at its platform calls. What it throws is traced as `app.error` (callback `coroutine <label>`).
public struct CoroutineScope: Sendable {
    @_spi(Host) public let tasks: WorldTasks
    @_spi(Host) public let trace: DeviceTrace
    @_spi(Host) public let kind: DevicePlatform

    public func launch(_ label: String, _ block: @escaping @Sendable () async throws -> Void) throws {
        try kind.require(.android, "Kotlin coroutines")
        let context = CallbackContext.current
        let trace = trace
        tasks.spawn {
            await CallbackContext.$current.withValue(context) {
                do { try await block() } catch { trace.recordError(error, in: "coroutine \(label)") }
            }
        }
    }
}
