import ControlProtocol
import Foundation

/// `clarityctl new-app NAME`: writes a package of a new Screen Time app on the simulated iOS
/// (docs/sdk.md, "A new app in one command"): the app's files, its registration, its own daemon,
/// a harness test, an exploration test and a scenario file, that build and pass as written.
/// Nothing is sent to a daemon.
struct NewApp: ClarityCommand {
    static let help = CommandHelp(
        words: ["new-app"], synopsis: "NAME [--path DIR] [--clarityd DIR]",
        abstract: "write a package of a new app (five files, registration, daemon, tests, scenario)",
        details: [
            "  NAME            the app's type prefix: a letter, then letters and digits (FocusGuard)",
            "  --path DIR      where to write the package (default: ./NAME); must not exist or be empty",
            "  --clarityd DIR  the clarityd clone the package depends on (default: the one clarityctl was built from)",
            "Then: cd DIR && swift test; swift run <name>d, and drive it with clarityctl.",
            "Example:",
            "  clarityctl new-app FocusGuard --path /tmp/FocusGuard",
        ])

    let template: NewAppTemplate
    let directory: URL

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        let name = try arguments.positional("NAME")
        let path = try arguments.value(of: "--path")
        let clarityd = try arguments.value(of: "--clarityd")
        try arguments.finish()
        guard let first = name.unicodeScalars.first, first.isASCII, CharacterSet.letters.contains(first),
            name.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }), name.count <= 40
        else {
            throw UsageError("NAME \(name): a letter, then up to 39 letters and digits (it names Swift types: FocusGuard)")
        }
        guard !Self.takenNames.contains(name.lowercased()) else {
            throw UsageError("NAME \(name): \(name.lowercased()) is AppRegistration.builtIn's or a Swift keyword; choose another")
        }
        let root = try clarityd.map { URL(fileURLWithPath: $0).standardizedFileURL } ?? Self.sourceRoot()
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/ClarityDaemon").path) else {
            throw UsageError("--clarityd \(root.path): not a clarityd clone (no Sources/ClarityDaemon)")
        }
        template = NewAppTemplate(name: name, claritydPath: root.path)
        if let clash = template.modules.first(where: { Self.takenModules(in: root).contains($0.lowercased()) }) {
            throw UsageError(
                "NAME \(name): the package would have a module \(clash), which clashes with a module of clarityd's or of "
                    + "Swift's of that name (it would import the wrong one); choose another")
        }
        directory = URL(fileURLWithPath: path ?? name).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw UsageError("--path \(directory.path) is a file: give a new directory")
        }
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        if !existing.isEmpty { throw UsageError("--path \(directory.path) is not empty: give a new directory") }
    }

    /// Lower-cased names of the modules a new package's own may not take: every target of the
    /// clarityd clone at `root` (its `Sources` and `Tests` directories: `ClarityDaemon`,
    /// `SimulatediOS`…), and what Swift and Foundation bring (`Swift`, `Foundation`, `Testing`…).
    /// A module of either name would shadow, or be shadowed by, the one the package imports.
    private static func takenModules(in root: URL) -> Set<String> {
        let targets = ["Sources", "Tests"].flatMap { folder in
            (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        }
        return Set((targets + toolchainModules).map { $0.lowercased() })
    }

    private static let toolchainModules = [
        "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
        "CoreFoundation", "Dispatch", "Testing", "XCTest", "Glibc", "Musl", "Darwin", "Observation", "Synchronization",
        "Distributed", "RegexBuilder", "PackageDescription", "SwiftOnoneSupport", "os",
    ]

    /// Lower-cased names a registration cannot take: `builtin` (`AppRegistration.builtIn` exists)
    /// and Swift keywords (`.return` would not compile). A built-in app's name is refused as its
    /// module's (``takenModules(in:)``).
    private static let takenNames: Set<String> = [
        "builtin", "class", "struct", "enum", "protocol",
        "extension", "func", "let", "var", "return", "if", "else", "for", "while", "switch", "case", "default", "import",
        "init", "self", "super", "true", "false", "nil", "in", "is", "as", "do", "try", "throw", "throws", "where", "static",
        "public", "private", "internal", "actor", "async", "await", "repeat", "guard", "defer", "break", "continue", "operator",
        "subscript", "typealias", "associatedtype", "deinit", "inout", "any", "some", "fileprivate", "open",
    ]

    /// The clone this clarityctl was built from, found from this file's path.
    private static func sourceRoot() throws -> URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../..")
            .standardizedFileURL
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/ClarityDaemon").path) else {
            throw UsageError("clarityctl's sources are not at \(root.path) any more: give --clarityd DIR (a clarityd clone)")
        }
        return root
    }

    func run(in session: Session) throws {
        var written: [String] = []
        for (path, text) in template.files {
            let file = directory.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file, options: .atomic)
            } catch {
                throw OutputFileError(path: file.path, reason: error.localizedDescription)
            }
            written.append(path)
        }
        let result: JSONValue = [
            "package": .string(directory.path), "app": .string(template.wireName), "daemon": .string(template.daemon),
            "files": .array(written.map(JSONValue.string)),
        ]
        session.output.show(
            result,
            lines: ["wrote \(directory.path):"] + written.map { "  " + $0 } + [
                "",
                "cd \(directory.path) && swift test       # the harness test and the exploration",
                "swift run \(template.daemon) --socket /tmp/\(template.wireName)/clarityd.sock &",
                "CLARITYD_SOCKET=/tmp/\(template.wireName)/clarityd.sock clarityctl device create phone --app \(template.wireName)",
            ])
    }
}
