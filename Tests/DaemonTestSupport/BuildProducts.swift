import Foundation

/// Where `swift build` / `swift test` put the executables: the directory of the test bundle
/// (`.build/<triple>/<config>/`), found from the loaded bundles, else `.build/debug/` of the
/// package that holds this file.
public enum BuildProducts {
    public static let directory: URL = {
        let bundleDirectories = ([Bundle.main] + Bundle.allBundles).flatMap { bundle in
            [bundle.bundleURL, bundle.executableURL].compactMap { $0 }
                .filter { $0.pathExtension == "xctest" }
                .map { $0.deletingLastPathComponent() }
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = bundleDirectories + [packageRoot.appendingPathComponent(".build/debug")]
        return candidates.first {
            FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("clarityd").path)
        }
            ?? candidates[0]
    }()

    /// The built executable called `name` (`clarityd`, `clarityctl`).
    public static func executable(_ name: String) -> URL {
        directory.appendingPathComponent(name)
    }
}
