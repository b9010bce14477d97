import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The check that confined state is touched only where it is confined, in the style of
/// swift-nio's `NIOLoopBound` (`preconditionInEventLoop()` on every access): a world entered by
/// a second thread while another runs it, an event loop's connections touched off its thread,
/// a device's state touched off its lane — each is a precondition failure naming what broke.
///
/// The checks run in debug builds only: a release build compiles them away, so its speed is
/// unchanged (docs/runtime.md, "Confinement").
public enum Confinement {
    /// Fails the process, naming `what`, when `isConfined` is false. Debug builds only: a
    /// release build evaluates neither argument.
    @inlinable
    public static func check(
        _ isConfined: @autoclosure () -> Bool, _ what: @autoclosure () -> String,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        #if DEBUG
            if !isConfined() { preconditionFailure("confinement broken: \(what())", file: file, line: line) }
        #endif
    }

    /// A number for the calling thread, equal for the same running thread and different for
    /// two running at once.
    public static var currentThread: Int {
        #if canImport(Darwin)
            Int(bitPattern: UnsafeRawPointer(pthread_self()))
        #else
            Int(bitPattern: pthread_self())
        #endif
    }
}

/// The one thread that may touch some state (an event loop's), recorded when that thread
/// starts running it (``bind()``) and checked where the state is touched (``check(_:)``).
public final class OwningThread: Sendable {
    /// What the state is, for the failure message.
    public let name: String
    /// ``Confinement/currentThread`` of the owner; 0 before ``bind()``. An atomic, which
    /// ThreadSanitizer follows.
    private let owner = Atomic<Int>(0)

    public init(_ name: String) {
        self.name = name
    }

    /// The calling thread owns the state from now on.
    public func bind() {
        #if DEBUG
            owner.store(Confinement.currentThread, ordering: .releasing)
        #endif
    }

    /// Fails the process when the calling thread is not the owner (debug builds only).
    @inlinable
    public func check(file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
            Confinement.check(isOwner, "\(name) touched off its thread", file: file, line: line)
        #endif
    }

    @usableFromInline var isOwner: Bool { owner.load(ordering: .acquiring) == Confinement.currentThread }
}
