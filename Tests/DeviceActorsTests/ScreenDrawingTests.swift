import Foundation
import Testing

@testable import ScreenRendering

/// `PhoneScreen.svg()`: the drawing a person sees, well-formed whatever the apps named, the same
/// bytes for the same screen, the shield's look as its configuration says, every text on screen.
@Suite struct ScreenDrawingTests {
    private func screen(
        home: [PhoneScreen.HomeIcon] = [], frontmost: PhoneScreen.Frontmost? = nil, shield: PhoneScreen.Shield? = nil,
        banners: [PhoneScreen.Banner] = [], locked: Bool = false, platform: PhoneScreen.Platform = .ios
    ) -> PhoneScreen {
        PhoneScreen(
            platform: platform, t: 600, clock: "09:10", date: "Monday, January 5", locked: locked, home: home,
            frontmost: frontmost, shield: shield, banners: banners, focusMode: false)
    }

    private let instagram = PhoneScreen.Frontmost(bundleIdentifier: "com.burbn.instagram", name: "Instagram")

    @Test func markupAndControlCharactersInAnyTextStillGiveWellFormedXML() throws {
        let hostile = "<&\"'>\u{1}\n]]><!--"
        let drawn = screen(
            home: [.init(bundleIdentifier: "com.x.\(hostile)", name: "Ev\(hostile)il", shielded: true)],
            frontmost: .init(bundleIdentifier: hostile, name: hostile),
            shield: .init(
                app: hostile, title: "T\(hostile)", subtitle: hostile, primaryButtonLabel: hostile, secondaryButtonLabel: hostile,
                source: .extension, backgroundColor: "red\" onload=\"alert(1)", icon: hostile, titleColor: hostile),
            banners: [.init(t: 600, title: hostile, body: hostile, app: hostile)]
        ).svg()
        let document = SVGDocument(drawn)
        #expect(document.error == nil, "\(document.error ?? "")")
        #expect(document.text(of: "shield-title") == "T<&\"'>\u{FFFD} ]]><!--")
        #expect(document.parts("shield")[0].attributes["data-app"] == "<&\"'>\u{FFFD} ]]><!--")
        #expect(document.parts("shield-background")[0].attributes["fill"] == "#F2F2F7", "a colour that is no colour is the system's")
        #expect(!drawn.contains("onload"))
        for home in [screen(home: [.init(bundleIdentifier: hostile, name: hostile, shielded: false)]), screen(locked: true)] {
            #expect(SVGDocument(home.svg()).error == nil)
        }
    }

    @Test func theSameScreenGivesTheSameBytes() {
        let home = (0..<20).map { PhoneScreen.HomeIcon(bundleIdentifier: "app.\($0)", name: "App \($0)", shielded: $0 % 3 == 0) }
        let banners = [PhoneScreen.Banner(t: 300, title: "Awareness Nudge", body: "Five minutes.", app: "Clarity")]
        let shield = PhoneScreen.Shield(
            app: "com.burbn.instagram", title: "Text someone instead", subtitle: "A real connection", primaryButtonLabel: "Open",
            secondaryButtonLabel: "Continue", source: .extension, backgroundBlurStyle: "systemMaterial")
        for value in [screen(home: home, banners: banners), screen(home: home, frontmost: instagram, shield: shield)] {
            let copy = value
            #expect(value.svg() == copy.svg())
            #expect(value.svg() == value.svg())
        }
    }

    @Test func theShieldIsDrawnAsItsConfigurationSays() throws {
        let shield = PhoneScreen.Shield(
            app: "com.burbn.instagram", title: "Take a breath", subtitle: "It will still be here", primaryButtonLabel: "Pause",
            secondaryButtonLabel: "Go on", source: .extension, backgroundBlurStyle: "systemUltraThinMaterialDark",
            backgroundColor: "#1C1C1E", icon: "heart.fill", titleColor: "#FFFFFF", subtitleColor: "systemGray",
            primaryButtonLabelColor: "#000000", primaryButtonBackgroundColor: "systemIndigo", secondaryButtonLabelColor: "systemPink")
        let drawn = screen(home: [.init(bundleIdentifier: "com.burbn.instagram", name: "Instagram", shielded: true)],
            frontmost: instagram, shield: shield).svg()
        let document = SVGDocument(drawn)
        #expect(document.error == nil)
        #expect(drawn.contains("<feGaussianBlur"), "the blur style blurs what is behind the shield")
        #expect(document.parts("shield-blur")[0].attributes["filter"] == "url(#frost)")
        #expect(document.parts("shield-background")[0].attributes["fill"] == "#1C1C1E")
        #expect(document.parts("shield-background")[0].attributes["opacity"] == "0.72", "a frosted, translucent layer")
        #expect(document.parts("shield-icon")[0].attributes["d"] == SVGSymbol.heart)
        #expect(document.parts("shield-title")[0].attributes["fill"] == "#FFFFFF")
        #expect(document.parts("shield-subtitle")[0].attributes["fill"] == "#8E8E93")
        #expect(document.parts("shield-primary-button")[0].attributes["fill"] == "#5856D6")
        #expect(document.parts("shield-primary")[0].attributes["fill"] == "#000000")
        #expect(document.parts("shield-secondary")[0].attributes["fill"] == "#FF2D55")
        #expect(document.text(of: "shield-title") == "Take a breath")

        let plain = SVGDocument(screen(frontmost: instagram, shield: .init(
            app: "com.burbn.instagram", title: "Restricted", subtitle: "You cannot use Instagram because it's restricted.",
            primaryButtonLabel: "OK", secondaryButtonLabel: nil, source: .systemDefault)).svg())
        #expect(plain.parts("shield")[0].attributes["data-source"] == "systemDefault")
        #expect(plain.parts("shield-blur").isEmpty && plain.parts("shield-secondary").isEmpty)
        #expect(plain.parts("shield-icon")[0].attributes["d"] == SVGSymbol.hourglass, "the system's shield shows the hourglass")
    }

    @Test func longTextsWrapOrEndWithAnEllipsisInsideTheScreen() throws {
        let word = String(repeating: "W", count: 300)
        let sentence = Array(repeating: "Wm mmW WWmm &&H HH&", count: 60).joined(separator: " ")
        let shield = PhoneScreen.Shield(
            app: "a", title: word, subtitle: sentence, primaryButtonLabel: word, secondaryButtonLabel: sentence, source: .extension)
        let document = SVGDocument(
            screen(
                home: [.init(bundleIdentifier: "a", name: word, shielded: false)], frontmost: instagram, shield: shield,
                banners: [
                    .init(t: 1, title: word, body: sentence, app: word),
                    .init(t: 0, title: String(repeating: "&", count: 300), body: String(repeating: "H", count: 300), app: "&"),
                ]
            ).svg())
        #expect(document.error == nil)
        let title = document.lines(of: "shield-title")
        #expect(title.count == 3 && title.last?.hasSuffix("…") == true)
        let subtitle = document.lines(of: "shield-subtitle")
        #expect(subtitle.count == 8 && subtitle.last?.hasSuffix("…") == true)
        #expect(document.text(of: "shield-primary")?.hasSuffix("…") == true)
        for (index, element) in document.elements.enumerated() where element.name == "text" || element.name == "tspan" {
            let (left, right) = box(of: index, in: document)
            #expect(left >= 0 && right <= 390, "\(element.text.prefix(20))… overflows: \(left)…\(right)")
        }
    }

    /// Where a line of text reaches, left to right, at DejaVu Sans's advances (`W`, `m` and `…`
    /// 1.05 em in bold, 1 em in regular; `&` 0.872, `H` 0.837, a space 0.35 em, anything else at
    /// most 0.8 em): from its `x` and `text-anchor` (a `tspan` takes its `text`'s size, weight
    /// and anchor).
    private func box(of index: Int, in document: SVGDocument) -> (Double, Double) {
        let element = document.elements[index]
        let owner = document.elements[...index].last { $0.name == "text" }!
        let size = Double(owner.attributes["font-size"]!)!
        let wide = Int(owner.attributes["font-weight"] ?? "400")! >= 600 ? 1.05 : 1
        let advances: [Character: Double] = ["W": wide, "m": wide, "…": wide, "&": 0.872, "H": 0.837, " ": 0.35]
        let width = element.text.reduce(0.0) { $0 + (advances[$1] ?? 0.8) } * size
        let x = Double(element.attributes["x"] ?? owner.attributes["x"] ?? "0")!
        switch owner.attributes["text-anchor"] {
        case "middle": return (x - width / 2, x + width / 2)
        case "end": return (x - width, x)
        default: return (x, x + width)
        }
    }

    @Test func androidHasItsOwnBarsAndCards() {
        let banner = PhoneScreen.Banner(t: 1, title: "Missed call", body: "Alice", app: "The Phone")
        let document = SVGDocument(screen(banners: [banner], platform: .android).svg())
        #expect(document.error == nil)
        #expect(document.parts("screen")[0].attributes["data-platform"] == "android")
        #expect(document.parts("navigation-bar").count == 1)
        #expect(document.text(of: "banner-title") == "Missed call")
        let iPhone = SVGDocument(screen(banners: [banner]).svg())
        #expect(iPhone.parts("navigation-bar").isEmpty && iPhone.parts("screen")[0].attributes["data-platform"] == "ios")
    }
}
