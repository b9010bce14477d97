import ControlProtocol
import DaemonTestSupport
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `device.screen` and `clarityctl screen` against a real daemon.
@Suite struct DeviceScreenDaemonTests {
    private static let instagram = "com.burbn.instagram"

    /// Clarity's friction path to the shield: Instagram chosen, opened, used ten minutes.
    private func frictionRun(_ daemon: DaemonProcess) throws {
        _ = try daemon.call("intent", ["name": "selectApps", "args": ["apps": [.string(Self.instagram)]]])
        _ = try daemon.call("event", ["type": "app.open", "app": .string(Self.instagram)])
        _ = try daemon.call("clock.advance", ["seconds": 600])
    }

    private func wellFormed(_ data: Data) -> Bool { XMLParser(data: data).parse() }

    @Test func theScreenIsAnsweredAsAValueOrDrawn() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try frictionRun(daemon)
        let screen = try daemon.call("device.screen")
        #expect(screen["shield"]?["title"] == "Text someone instead" && screen["shield"]?["source"] == "extension")
        #expect(screen["frontmost"]?["name"] == "Instagram" && screen["locked"] == false && screen["clock"] == "09:10")
        #expect(screen["svg"] == nil, "json, the default, is the screen alone")
        let drawn = try daemon.call("device.screen", ["format": "svg"])
        #expect(drawn["shield"] == screen["shield"], "the drawing comes with the screen")
        let svg = try #require(drawn["svg"]?.stringValue)
        #expect(svg.hasPrefix("<svg ") && svg.contains(">Text someone instead<") && wellFormed(Data(svg.utf8)))
    }

    @Test func badParamsAreRefusedByNameAndTheDaemonServesOn() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        for (params, field) in [(["format": "png"], "format"), (["format": 1], "format"), (["formats": "svg"], "formats")]
            as [(JSONValue, String)]
        {
            let error = #expect(throws: RPCError.self) { try daemon.call("device.screen", params) }
            #expect(error?.code == RPCError.Code.invalidParams)
            #expect(error?.data?["field"] == .string(field))
        }
        let format = #expect(throws: RPCError.self) { try daemon.call("device.screen", ["format": "png"]) }
        #expect(format?.message.contains("json, svg") == true, "\(format?.message ?? "")")
        let unknown = #expect(throws: RPCError.self) { try daemon.call("device.screen", ["device": "nowhere"]) }
        #expect(unknown?.code == RPCError.Code.noSuchDevice)
        #expect(try daemon.call("device.screen")["locked"] == false)
    }

    @Test func clarityctlDescribesTheScreenOrDrawsItToAnSVGFile() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        try frictionRun(daemon)
        let described = daemon.runCtl(["screen"])
        #expect(described.status == 0, "stderr: \(described.stderr)")
        for line in [
            "screen:   Instagram in front (com.burbn.instagram)", "shield:   Text someone instead",
            "          A real connection beats any feed", "buttons:  [Open Clarity]  [I Choose to Continue]",
            "source:   extension", "shielded: Instagram", "banners:",
            "  300  Clarity  Awareness Nudge: You've been on Instagram for 5 minutes.",
        ] {
            #expect(described.stdout.contains(line + "\n"), "missing \(line) in:\n\(described.stdout)")
        }
        let file = daemon.directory.appendingPathComponent("screen.svg")
        let written = daemon.runCtl(["screen", "-o", file.path])
        #expect(written.status == 0 && written.stdout == "wrote the screen to \(file.path)\n", "\(written)")
        let svg = try Data(contentsOf: file)
        #expect(wellFormed(svg) && String(decoding: svg, as: UTF8.self).contains(">A real connection beats any feed<"))
    }

    @Test func anOutputThatIsNeitherSVGNorPNGIsAUsageErrorNamingO() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        for name in ["screen.jpg", "screen", "screen.svg.txt"] {
            let refused = daemon.runCtl(["screen", "-o", daemon.directory.appendingPathComponent(name).path])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("-o ") && refused.stderr.contains("FILE.svg or FILE.png"), "\(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: daemon.directory.appendingPathComponent("screen.jpg").path))
    }

    @Test func aPNGWithoutAConverterSaysWhatToInstallAndKeepsTheSVG() throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let nothing = daemon.directory.appendingPathComponent("empty-bin")
        try FileManager.default.createDirectory(at: nothing, withIntermediateDirectories: true)
        let png = daemon.directory.appendingPathComponent("screen.png")
        let result = Clarityctl.run(["--socket", daemon.socketPath, "screen", "-o", png.path], environment: ["PATH": nothing.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("rsvg-convert") && result.stderr.contains("imagemagick"), "\(result.stderr)")
        let kept = daemon.directory.appendingPathComponent("screen.svg")
        #expect(result.stderr.contains("written as SVG to \(kept.path)"))
        #expect(wellFormed(try Data(contentsOf: kept)))
        #expect(!FileManager.default.fileExists(atPath: png.path))
    }
}
