/// Draws a ``PhoneScreen`` as a standalone SVG document, Foundation-free: the same screen gives
/// the same bytes. 390 × 844 points (an iPhone 15's screen); Android's frame is the same size,
/// with its own status bar, navigation bar, round icons and notification cards
/// (`PhoneScreen+Android.swift`). Every text is escaped and kept inside the screen: long ones
/// wrap or end with `…` (docs/screen.md, "The drawing").
extension PhoneScreen {
    public static let width = 390
    public static let height = 844

    /// The screen as an SVG document (`<svg xmlns=…>…</svg>`), with `data-part` attributes on
    /// the parts a test or a report looks for (`shield-title`, `banner`, `home-icon`).
    public func svg() -> String {
        var out = SVGWriter(width: Self.width, height: Self.height)
        out.roundedClip(id: "screen", radius: cornerRadius)
        if shield?.backgroundBlurStyle != nil { out.blurFilter(id: "frost", deviation: 14) }
        out.group(part: "screen", attributes: ["clip-path": "url(#screen)", "data-platform": platform.rawValue]) { out in
            out.rect(x: 0, y: 0, width: Self.width, height: Self.height, fill: locked ? "#0B1026" : wallpaper)
            if locked {
                drawLockScreen(&out)
            } else if let frontmost {
                if let shield {
                    drawShield(shield, over: frontmost, &out)
                } else {
                    drawApp(frontmost, &out)
                }
            } else {
                drawHome(&out)
            }
            drawStatusBar(&out)
            drawBanners(&out)
            if platform == .android { drawNavigationBar(&out) }
        }
        return out.document()
    }

    /// At most this many icons fit the home screen; the rest are counted under them.
    public static let homeIconsShown = 28

    private var cornerRadius: Int { platform == .android ? 28 : 48 }
    private var wallpaper: String { platform == .android ? "#1B3A2F" : "#1F3B73" }

    /// The colour the status bar's text takes over what is behind it.
    private var statusInk: String {
        guard !locked, frontmost != nil else { return "#FFFFFF" }
        guard let shield else { return "#000000" }
        if let style = shield.backgroundBlurStyle, shield.backgroundColor == nil { return style.contains("Dark") ? "#FFFFFF" : "#000000" }
        return SVGColor.isLight(shield.backgroundColor) ? "#000000" : "#FFFFFF"
    }

    private func drawStatusBar(_ out: inout SVGWriter) {
        guard platform == .ios else { return drawAndroidStatusBar(&out) }
        let ink = statusInk
        out.text(clock, x: 54, y: 34, size: 16, weight: "600", fill: ink, part: "status-clock")
        out.rect(x: 140, y: 12, width: 110, height: 30, fill: "#000000", rx: 15)
        if focusMode { out.shape(SVGSymbol.moon, x: 112, y: 21, size: 15, fill: ink, part: "focus") }
        for bar in 0..<4 { out.rect(x: 290 + bar * 6, y: 32 - 3 * bar - 4, width: 4, height: 3 * bar + 4, fill: ink, rx: 1) }
        out.rect(x: 320, y: 21, width: 24, height: 12, fill: "none", rx: 3, stroke: ink)
        out.rect(x: 322, y: 23, width: 18, height: 8, fill: ink, rx: 2)
    }

    private func drawLockScreen(_ out: inout SVGWriter) {
        guard platform == .ios else { return drawAndroidLockScreen(&out) }
        out.shape(SVGSymbol.lock, x: 185, y: 62, size: 20, fill: "#FFFFFF")
        out.text(date, x: 195, y: 120, size: 20, weight: "500", fill: "#FFFFFF", anchor: "middle", part: "lock-date")
        out.text(clock, x: 195, y: 200, size: 86, weight: "700", fill: "#FFFFFF", anchor: "middle", part: "lock-clock")
    }

    private func drawHome(_ out: inout SVGWriter) {
        let columns = 4
        for (index, icon) in home.prefix(Self.homeIconsShown).enumerated() {
            let x = 27 + (index % columns) * 88
            let y = 80 + (index / columns) * 100
            out.group(part: "home-icon", attributes: ["data-app": icon.bundleIdentifier, "data-shielded": "\(icon.shielded)"]) { out in
                let dim = icon.shielded ? 0.35 : 1
                if platform == .android {
                    out.circle(cx: x + 32, cy: y + 32, r: 30, fill: SVGColor.iconColor(icon.bundleIdentifier), opacity: dim)
                } else {
                    out.rect(x: x, y: y, width: 64, height: 64, fill: SVGColor.iconColor(icon.bundleIdentifier), rx: 14, opacity: dim)
                }
                out.text(String(icon.name.prefix(1)), x: x + 32, y: y + 43, size: 30, weight: "700", fill: "#FFFFFF",
                    anchor: "middle", opacity: dim)
                if icon.shielded { out.shape(SVGSymbol.hourglass, x: x + 16, y: y + 16, size: 32, fill: "#FFFFFF", part: "hourglass") }
                out.text(icon.name, x: x + 32, y: y + 82, size: 12, fill: "#FFFFFF", anchor: "middle",
                    opacity: icon.shielded ? 0.6 : 1, width: 84)
            }
        }
        if home.count > Self.homeIconsShown {
            out.text("+\(home.count - Self.homeIconsShown) more", x: 195, y: 790, size: 13, fill: "#FFFFFF", anchor: "middle",
                part: "home-more")
        }
    }

    private func drawApp(_ app: Frontmost, _ out: inout SVGWriter) {
        guard platform == .ios else { return drawAndroidApp(app, &out) }
        out.rect(x: 0, y: 0, width: Self.width, height: Self.height, fill: "#F2F2F7")
        out.paragraph(app.name, x: 195, y: 110, size: 28, width: 340, maxLines: 2, weight: "700", fill: "#000000",
            part: "frontmost")
    }

    /// The shield as its configuration says: over the app, or — with a blur style — a
    /// translucent layer of its colour over the home screen, blurred.
    private func drawShield(_ shield: Shield, over app: Frontmost, _ out: inout SVGWriter) {
        let material = shield.backgroundBlurStyle.map { $0.contains("Dark") ? "#1C1C1E" : "#F2F2F7" } ?? "#F2F2F7"
        let background = SVGColor.resolve(shield.backgroundColor, default: material)
        if shield.backgroundBlurStyle != nil {
            out.group(part: "shield-blur", attributes: ["filter": "url(#frost)"]) { drawHome(&$0) }
        } else {
            drawApp(app, &out)
        }
        let attributes = [
            "data-source": shield.source.rawValue, "data-app": shield.app, "data-frontmost": app.bundleIdentifier,
            "data-blur": shield.backgroundBlurStyle ?? "none",
        ]
        out.group(part: "shield", attributes: attributes) { out in
            out.rect(x: 0, y: 0, width: Self.width, height: Self.height, fill: background,
                opacity: shield.backgroundBlurStyle == nil ? 1 : 0.72, part: "shield-background")
            out.shape(SVGSymbol.icon(named: shield.icon), x: 159, y: 230, size: 72,
                fill: SVGColor.resolve(shield.titleColor, default: "#8E8E93"), part: "shield-icon")
            let titleLines = SVGWriter.lines(of: shield.title, size: 24, weight: "700", width: 330, maxLines: 3).count
            out.paragraph(shield.title, x: 195, y: 360, size: 24, width: 330, maxLines: 3, weight: "700",
                fill: SVGColor.resolve(shield.titleColor, default: "#000000"), part: "shield-title")
            out.paragraph(shield.subtitle, x: 195, y: 370 + titleLines * 30, size: 16, width: 330, maxLines: 8,
                fill: SVGColor.resolve(shield.subtitleColor, default: "#3C3C43"), part: "shield-subtitle")
            out.rect(x: 40, y: 680, width: 310, height: 50,
                fill: SVGColor.resolve(shield.primaryButtonBackgroundColor, default: "#007AFF"), rx: 14, part: "shield-primary-button")
            out.text(shield.primaryButtonLabel, x: 195, y: 711, size: 17, weight: "600",
                fill: SVGColor.resolve(shield.primaryButtonLabelColor, default: "#FFFFFF"), anchor: "middle", width: 290,
                part: "shield-primary")
            if let secondary = shield.secondaryButtonLabel {
                out.text(secondary, x: 195, y: 770, size: 17,
                    fill: SVGColor.resolve(shield.secondaryButtonLabelColor, default: "#007AFF"), anchor: "middle", width: 330,
                    part: "shield-secondary")
            }
        }
    }

    /// The banners, newest on top; as many as fit under the lock screen's clock or the status bar.
    private func drawBanners(_ out: inout SVGWriter) {
        let top = locked ? 260 : 56
        for (index, banner) in banners.prefix(locked ? 5 : 4).enumerated() {
            let y = top + index * 96
            guard platform == .ios else {
                drawAndroidCard(banner, y: y, &out)
                continue
            }
            out.group(part: "banner") { out in
                out.rect(x: 12, y: y, width: 366, height: 88, fill: "#F9F9F9", rx: 18, opacity: 0.94)
                out.text(banner.app.uppercased(), x: 28, y: y + 22, size: 11, fill: "#6C6C70", width: 334)
                out.text(banner.title, x: 28, y: y + 44, size: 15, weight: "600", fill: "#000000", width: 334,
                    part: "banner-title")
                out.paragraph(banner.body, x: 28, y: y + 63, size: 13, width: 334, maxLines: 2, fill: "#000000", anchor: "start",
                    part: "banner-body")
            }
        }
    }
}
