import Foundation

/// Turns the screen's SVG into a PNG with a converter found on `PATH`, tried in this order:
/// `rsvg-convert` (librsvg), ImageMagick's `magick` or `convert`, then headless Chromium. One
/// that fails (a `convert` that is not ImageMagick) passes to the next. With none that works the
/// SVG is written beside the PNG's path (`FILE.svg`), so that what was drawn is not lost.
enum PNGConverter {
    /// A converter: the program and its arguments for an SVG file in and a PNG file out.
    private struct Tool: Sendable {
        let program: String
        let arguments: @Sendable (_ svg: String, _ png: String) -> [String]
    }

    private static let tools: [Tool] = [
        Tool(program: "rsvg-convert") { svg, png in ["-o", png, svg] },
        Tool(program: "magick") { svg, png in [svg, png] },
        Tool(program: "convert") { svg, png in [svg, png] },
    ] + ["chromium", "chromium-browser", "google-chrome"].map { browser in
        Tool(program: browser) { svg, png in
            ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--screenshot=\(png)",
                "--window-size=390,844", URL(fileURLWithPath: svg).absoluteString]
        }
    }

    /// Converts `svg` to the PNG file `path`; returns the converter's name.
    static func convert(_ svg: String, to path: String) throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("clarityctl-screen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let input = scratch.appendingPathComponent("screen.svg")
        let output = scratch.appendingPathComponent("screen.png")
        try Data(svg.utf8).write(to: input)
        var failures: [String] = []
        for tool in tools {
            guard let program = executable(tool.program) else { continue }
            if let failure = run(program, tool.arguments(input.path, output.path), producing: output) {
                failures.append("\(tool.program): \(failure)")
                continue
            }
            try OutputFile(path: path).write(Array(try Data(contentsOf: output)))
            return tool.program
        }
        let kept = URL(fileURLWithPath: path).deletingPathExtension().appendingPathExtension("svg").path
        try OutputFile(path: kept).write(Array(svg.utf8))
        throw NoConverter(svgPath: kept, failures: failures)
    }

    /// How long one converter may take (a headless browser that hangs is ended).
    private static let timeLimitSeconds = 60

    /// `name` as found on `PATH`, if it is there and executable.
    private static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `program`; nil when it exited 0 and left a PNG at `output`, else why not.
    private static func run(_ program: String, _ arguments: [String], producing output: URL) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            return "cannot start: \(error.localizedDescription)"
        }
        if exited.wait(timeout: .now() + .seconds(Self.timeLimitSeconds)) == .timedOut {
            process.terminate()
            exited.wait()
            return "still running after \(Self.timeLimitSeconds) s"
        }
        guard process.terminationStatus == 0 else { return "exit status \(process.terminationStatus)" }
        guard let head = try? FileHandle(forReadingFrom: output).readData(ofLength: 8), head.starts(with: [0x89, 0x50, 0x4E, 0x47])
        else { return "wrote no PNG" }
        return nil
    }

    /// No converter on `PATH` made a PNG (exit status 1).
    struct NoConverter: Error, CustomStringConvertible {
        let svgPath: String
        let failures: [String]

        var description: String {
            let tried = failures.isEmpty ? "none is on PATH" : "tried " + failures.joined(separator: "; ")
            return "no SVG-to-PNG converter worked (\(tried)); install one: rsvg-convert (apt install librsvg2-bin, "
                + "brew install librsvg), ImageMagick (apt install imagemagick) or Chromium. "
                + "The screen was written as SVG to \(svgPath)"
        }
    }
}
