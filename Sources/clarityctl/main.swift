import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A daemon that goes away mid-write must give exit status 3, not kill clarityctl with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
let status = ClarityCtl.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(status.rawValue)
