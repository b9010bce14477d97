import ExtensionSandbox
import Testing

/// Seconds as virtual time: exact to the millisecond, and held within ±2^62 ms where a
/// conversion to `Int64` would trap (an app's timer computed from a damaged install time did).
@Suite struct VirtualDurationTests {
    @Test func secondsAreRoundedToTheMillisecond() {
        #expect(VirtualDuration.seconds(1.5).milliseconds == 1_500)
        #expect(VirtualDuration.seconds(-0.0004).milliseconds == 0)
        #expect(VirtualDuration.seconds(0.0015).milliseconds == 2)
        #expect(VirtualInstant(seconds: 86_400).milliseconds == 86_400_000)
    }

    @Test(arguments: [1e300, 9.3e15, .infinity, .nan, -1e300, -.infinity])
    func aSpanPastTheFarthestIsHeldThere(seconds: Double) {
        let expected = seconds < 0 ? -VirtualDuration.farthest.milliseconds : VirtualDuration.farthest.milliseconds
        #expect(VirtualDuration.seconds(seconds).milliseconds == expected)
        #expect(VirtualInstant(seconds: seconds).milliseconds == expected)
        // A device's latest instant plus it still fits.
        #expect((VirtualInstant(milliseconds: 1 << 53) + .seconds(seconds)).milliseconds != 0)
    }
}
