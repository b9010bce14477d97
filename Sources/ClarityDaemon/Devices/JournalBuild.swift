import ControlProtocol
import Foundation

/// Which build of clarityd wrote a journal: its version, build configuration, compiler, source
/// revision (when known) and executable (size and time of last change), in the journal's header. A replay that leaves the
/// recorded path can then say why: another build (the scheduler's decisions and the apps' code
/// may differ), or the same build — so the file was changed since (edited by hand, or damaged).
enum JournalBuild {
    /// This process's build, e.g. `0.1.0 debug swift-6.3, revision 9aca8ce…, executable 63512344 bytes of 2026-11-25T18:02:11Z`.
    static let current: String = {
        #if DEBUG
            let configuration = "debug"
        #else
            let configuration = "release"
        #endif
        #if compiler(>=6.4)
            let compiler = "swift-6.4+"
        #elseif compiler(>=6.3)
            let compiler = "swift-6.3"
        #else
            let compiler = "swift-6.2-"
        #endif
        var description = "\(ClarityProtocol.version) \(configuration) \(compiler)"
        if let revision = SourceRevision.current { description += ", revision \(revision)" }
        if let path = Bundle.main.executablePath,
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date
        {
            description += ", executable \(size) bytes of \(ISO8601DateFormatter().string(from: modified))"
        }
        return description
    }()
}
