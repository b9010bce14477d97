import Dispatch
import Foundation
import Testing

@testable import ExtensionSandbox

/// Confinement is checked, not only written (docs/runtime.md, "Confinement"): a second thread
/// entering a world while another runs it is a precondition failure, in a debug build.
@Suite struct ConfinementTests {
    #if DEBUG
        @Test func aSecondThreadEnteringARunningWorldFailsThePrecondition() async {
            await #expect(processExitsWith: .failure) {
                let world = World(seed: 1)
                let inside = DispatchSemaphore(value: 0)
                let leave = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    _ = try? world.perform {
                        inside.signal()
                        leave.wait()
                    }
                }
                inside.wait()
                _ = try? world.perform {}
                leave.signal()
            }
        }
    #endif

    @Test func oneThreadAfterAnotherMayRunAWorld() throws {
        let world = World(seed: 1)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? world.perform {}
            done.signal()
        }
        done.wait()
        #expect(try world.perform { 42 } == 42)
    }

    #if DEBUG
        @Test func stateTouchedOffItsOwningThreadFailsThePrecondition() async {
            await #expect(processExitsWith: .failure) {
                let owner = OwningThread("the test's state")
                owner.bind()
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    owner.check()
                    done.signal()
                }
                done.wait()
            }
        }
    #endif

    @Test func stateTouchedOnItsOwningThreadPasses() {
        let owner = OwningThread("the test's state")
        owner.bind()
        owner.check()
    }
}
