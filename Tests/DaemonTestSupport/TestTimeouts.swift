import Foundation

/// How much longer than usual the integration tests wait for the daemon: `CLARITYD_TEST_TIMEOUT_SCALE`
/// (default 1). scripts/sanitizers.sh sets it, because a daemon under ThreadSanitizer or
/// AddressSanitizer answers several times slower, and a timeout there is not a finding. Only
/// how long a test waits before giving up changes: nothing a test asserts is a duration.
public enum TestTimeouts {
    /// The sanitizer the daemon under test was built with (`CLARITYD_SANITIZER`, set by
    /// scripts/sanitizers.sh: `thread` or `address`); nil for a plain build.
    public static let sanitizer = ProcessInfo.processInfo.environment["CLARITYD_SANITIZER"]

    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["CLARITYD_TEST_TIMEOUT_SCALE"], let scale = Double(text),
            scale >= 1, scale.isFinite
        else { return 1 }
        return scale
    }()
}
