import Foundation
import Testing

@testable import clarityctl

/// `clarityctl new-app NAME`: the package it writes, and the names it refuses. That the package
/// builds and its tests pass as written is checked by `.ci/run`, which builds one.
@Suite struct NewAppTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "clarityctl-new-app-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")

    @Test func aPackageOfTheAppItsDaemonItsTestsAndAScenario() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let command = try parsedCommand(NewApp.self, ["FocusGuard", "--path", directory.path])
        #expect(command.template.wireName == "focusguard")
        #expect(command.template.daemon == "focusguardd")
        for (path, text) in command.template.files {
            #expect(!path.contains("__") && !text.contains("__Name__") && !text.contains("__name__") && !text.contains("__clarityd__"), "\(path)")
        }
        let paths = command.template.files.map(\.0)
        #expect(paths.contains("Sources/FocusGuard/FocusGuardMonitor.swift"))
        #expect(paths.contains("Sources/FocusGuard/FocusGuardShieldConfiguration.swift"))
        #expect(paths.contains("Sources/FocusGuard/FocusGuardShieldAction.swift"))
        #expect(paths.contains("Sources/FocusGuard/FocusGuardMainApp.swift"))
        #expect(paths.contains("Sources/FocusGuard/FocusGuardKeys.swift"))
        #expect(paths.contains("Sources/focusguardd/main.swift"))
        #expect(paths.contains("Tests/FocusGuardTests/FocusGuardTests.swift"))
        #expect(paths.contains("scenarios/focusguard-limit.json"))
        let package = try #require(command.template.files.first { $0.0 == "Package.swift" }?.1)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
        #expect(package.contains(".package(name: \"clarityd\", path: \"\(root.path)\")"))
        let registration = try #require(command.template.files.first { $0.0.hasSuffix("FocusGuardRegistration.swift") }?.1)
        #expect(registration.contains("public static let focusguard = AppRegistration(description: FocusGuardApp.description)"))
    }

    @Test func aNameMustMakeSwiftTypesAndNotTakeAnAppsOrAKeyword() {
        for name in ["9lives", "Focus-Guard", "Fokus✓", String(repeating: "A", count: 41), "Clarity", "class", "Return"] {
            let error = #expect(throws: UsageError.self, "\(name)") { try parsedCommand(NewApp.self, [name, "--path", directory.path]) }
            #expect(error?.message.hasPrefix("NAME \(name): ") == true, "\(String(describing: error))")
        }
    }

    /// A module the package would declare (the app, `<name>d`, `<Name>Tests`) may not take the
    /// name of one of clarityd's or of the toolchain's, which the package imports (issue 38:
    /// `new-app ClarityDaemon` wrote a package importing a module that clashes with its own).
    @Test func aNameWhoseModuleClashesWithAnImportedOneIsRefused() {
        for name in ["ClarityDaemon", "SimulatediOS", "Foundation", "Swift", "DeviceTesting", "Clarityctl", "Testing", "Devicetesting"] {
            let error = #expect(throws: UsageError.self, "\(name)") { try parsedCommand(NewApp.self, [name, "--path", directory.path]) }
            #expect(error?.message.hasPrefix("NAME \(name): the package would have a module ") == true, "\(String(describing: error))")
        }
    }

    /// `--path` naming a file is a usage error (exit 2), found before anything is written (issue
    /// 38: it failed writing, exit 1).
    @Test func aPathThatIsAFileIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("x".utf8).write(to: directory)
        let error = #expect(throws: UsageError.self) { try parsedCommand(NewApp.self, ["FocusGuard", "--path", directory.path]) }
        #expect(error?.message == "--path \(directory.path) is a file: give a new directory")
    }

    @Test func aDirectoryWithFilesInItIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: directory.appendingPathComponent("mine.txt"))
        let full = #expect(throws: UsageError.self) { try parsedCommand(NewApp.self, ["FocusGuard", "--path", directory.path]) }
        #expect(full?.message == "--path \(directory.path) is not empty: give a new directory")
        let elsewhere = #expect(throws: UsageError.self) {
            try parsedCommand(NewApp.self, ["FocusGuard", "--path", directory.path + "/new", "--clarityd", "/nonexistent"])
        }
        #expect(elsewhere?.message == "--clarityd /nonexistent: not a clarityd clone (no Sources/ClarityDaemon)")
    }
}
