import ControlProtocol
import Foundation
import ScreenRendering

/// `clarityctl screen [-o FILE.svg|FILE.png]`: what the device's screen shows now
/// (`device.screen`), as a short description, or drawn to a file.
struct ScreenShow: ClarityCommand {
    static let help = CommandHelp(
        words: ["screen"], synopsis: "[-o FILE.svg|FILE.png]",
        abstract: "show or draw the device's screen (device.screen)",
        details: [
            "  -o FILE, --output FILE  draw the screen to FILE (replacing it): .svg as the daemon draws it,",
            "                          .png converted by rsvg-convert, ImageMagick or headless Chromium",
            "Without -o: the lock screen, the home screen or the app in front, its shield as drawn",
            "(title, subtitle, buttons, who gave them) and the banners on screen (docs/screen.md).",
            "Examples:",
            "  clarityctl screen",
            "  clarityctl screen -o shield.svg --device lab",
        ], aliases: [["device", "screen"]])

    /// What `-o` asks for, from the file's extension.
    enum Drawing {
        case svg(OutputFile)
        case png(OutputFile)
    }

    let drawing: Drawing?

    init(arguments: inout Arguments, options: GlobalOptions) throws {
        guard let file = try OutputFile.take(from: &arguments) else {
            drawing = nil
            return
        }
        switch URL(fileURLWithPath: file.path).pathExtension.lowercased() {
        case "svg": drawing = .svg(file)
        case "png": drawing = .png(file)
        default: throw UsageError("-o \(file.path): the screen is drawn as FILE.svg or FILE.png")
        }
        try file.checkDirectory()
    }

    func run(in session: Session) throws {
        guard let drawing else {
            let result = try session.call(Method.deviceScreen.rawValue, params: session.options.deviceParams())
            let screen = try JSONWire.decode(PhoneScreen.self, from: result)
            session.output.show(result, lines: ScreenView.lines(for: screen))
            return
        }
        let result = try session.call(
            Method.deviceScreen.rawValue, params: session.options.deviceParams(["format": "svg"]))
        guard let svg = result["svg"]?.stringValue else { throw ScreenNotDrawn() }
        let written: String
        switch drawing {
        case .svg(let file):
            try file.write(Array(svg.utf8))
            written = "wrote the screen to \(file.path)"
        case .png(let file):
            let converter = try PNGConverter.convert(svg, to: file.path)
            written = "wrote the screen to \(file.path) (\(converter))"
        }
        if session.output.json {
            session.output.showJSON(["file": .string(drawing.path)])
        } else {
            print(written)
        }
    }

    /// The daemon answered `device.screen` without the drawing it was asked for.
    private struct ScreenNotDrawn: Error, CustomStringConvertible {
        var description: String { "the daemon's device.screen answer has no svg" }
    }
}

extension ScreenShow.Drawing {
    var path: String {
        switch self {
        case .svg(let file), .png(let file): file.path
        }
    }
}
