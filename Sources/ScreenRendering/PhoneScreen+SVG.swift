/// Draws a ``PhoneScreen`` as a standalone SVG document, Foundation-free: the same screen gives
/// the same bytes. 390 × 844 points (an iPhone 15's screen); Android's frame is the same size.
extension PhoneScreen {
    public static let width = 390
    public static let height = 844

    /// The screen as an SVG document (`<svg xmlns=…>…</svg>`), with `data-part` attributes on
    /// the parts a test or a report looks for (`shield-title`, `banner`, `home-icon`).
    public func svg() -> String {
        var out = SVGWriter(width: Self.width, height: Self.height)
        out.rect(x: 0, y: 0, width: Self.width, height: Self.height, fill: locked ? "#0B1026" : "#1F3B73", rx: 48)
        if locked {
            drawLockScreen(&out)
        } else if let frontmost {
            drawApp(frontmost, &out)
            if let shield { drawShield(shield, &out) }
        } else {
            drawHome(&out)
        }
        drawStatusBar(&out)
        drawBanners(&out)
        return out.document()
    }

    private func drawStatusBar(_ out: inout SVGWriter) {
        let ink = shield.map { SVGColor.isLight($0.backgroundColor) } == true ? "#000000" : "#FFFFFF"
        out.text(clock, x: 54, y: 34, size: 16, weight: "600", fill: ink, part: "status-clock")
        if focusMode { out.text("☾", x: 100, y: 34, size: 15, fill: ink, part: "focus") }
        out.text(platform == .android ? "▼ ▮" : "●●●● ▮", x: 336, y: 34, size: 14, fill: ink, anchor: "end")
    }

    private func drawLockScreen(_ out: inout SVGWriter) {
        out.text(date, x: 195, y: 120, size: 20, weight: "500", fill: "#FFFFFF", anchor: "middle", part: "lock-date")
        out.text(clock, x: 195, y: 200, size: 86, weight: "700", fill: "#FFFFFF", anchor: "middle", part: "lock-clock")
    }

    private func drawHome(_ out: inout SVGWriter) {
        let columns = 4
        for (index, icon) in home.enumerated() {
            let x = 27 + (index % columns) * 88
            let y = 80 + (index / columns) * 100
            out.group(part: "home-icon", attributes: ["data-app": icon.bundleIdentifier, "data-shielded": "\(icon.shielded)"]) { out in
                out.rect(x: x, y: y, width: 64, height: 64, fill: SVGColor.iconColor(icon.bundleIdentifier), rx: 14,
                    opacity: icon.shielded ? 0.35 : 1)
                out.text(String(icon.name.prefix(1)), x: x + 32, y: y + 43, size: 30, weight: "700", fill: "#FFFFFF",
                    anchor: "middle", opacity: icon.shielded ? 0.35 : 1)
                if icon.shielded { out.text("⌛", x: x + 32, y: y + 44, size: 26, fill: "#FFFFFF", anchor: "middle", part: "hourglass") }
                out.text(icon.name, x: x + 32, y: y + 82, size: 12, fill: "#FFFFFF", anchor: "middle")
            }
        }
    }

    private func drawApp(_ app: Frontmost, _ out: inout SVGWriter) {
        out.rect(x: 0, y: 0, width: Self.width, height: Self.height, fill: "#F2F2F7", rx: 48)
        out.text(app.name, x: 195, y: 110, size: 28, weight: "700", fill: "#000000", anchor: "middle", part: "frontmost")
    }

    private func drawShield(_ shield: Shield, _ out: inout SVGWriter) {
        out.group(part: "shield", attributes: ["data-source": shield.source.rawValue, "data-app": shield.app]) { out in
            out.rect(x: 0, y: 0, width: Self.width, height: Self.height,
                fill: SVGColor.resolve(shield.backgroundColor, default: "#F2F2F7"), rx: 48,
                opacity: shield.backgroundBlurStyle == nil ? 1 : 0.94)
            out.text(SVGColor.symbol(shield.icon), x: 195, y: 300, size: 64, fill: "#8E8E93", anchor: "middle", part: "shield-icon")
            out.text(shield.title, x: 195, y: 380, size: 24, weight: "700",
                fill: SVGColor.resolve(shield.titleColor, default: "#000000"), anchor: "middle", part: "shield-title")
            out.paragraph(shield.subtitle, x: 195, y: 420, size: 16, width: 36,
                fill: SVGColor.resolve(shield.subtitleColor, default: "#3C3C43"), part: "shield-subtitle")
            out.rect(x: 40, y: 680, width: 310, height: 50,
                fill: SVGColor.resolve(shield.primaryButtonBackgroundColor, default: "#007AFF"), rx: 14)
            out.text(shield.primaryButtonLabel, x: 195, y: 711, size: 17, weight: "600",
                fill: SVGColor.resolve(shield.primaryButtonLabelColor, default: "#FFFFFF"), anchor: "middle",
                part: "shield-primary")
            if let secondary = shield.secondaryButtonLabel {
                out.text(secondary, x: 195, y: 770, size: 17,
                    fill: SVGColor.resolve(shield.secondaryButtonLabelColor, default: "#007AFF"), anchor: "middle",
                    part: "shield-secondary")
            }
        }
    }

    private func drawBanners(_ out: inout SVGWriter) {
        let top = locked ? 260 : 56
        for (index, banner) in banners.prefix(4).enumerated() {
            let y = top + index * 84
            out.group(part: "banner", attributes: [:]) { out in
                out.rect(x: 12, y: y, width: 366, height: 76, fill: "#F9F9F9", rx: 18, opacity: 0.92)
                out.text(banner.app.uppercased(), x: 28, y: y + 22, size: 11, fill: "#6C6C70")
                out.text(banner.title, x: 28, y: y + 44, size: 15, weight: "600", fill: "#000000", part: "banner-title")
                out.text(SVGWriter.clipped(banner.body, to: 44), x: 28, y: y + 64, size: 14, fill: "#000000",
                    part: "banner-body")
            }
        }
    }
}
