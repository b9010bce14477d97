/// Android's look for ``PhoneScreen/svg()`` (The Phone's Android client): the clock at the
/// status bar's left, a navigation bar of back, home and recents, a Material top app bar, and
/// notifications as white cards.
extension PhoneScreen {
    func drawAndroidStatusBar(_ out: inout SVGWriter) {
        let ink = statusInkAndroid
        out.text(clock, x: 24, y: 30, size: 15, weight: "500", fill: ink, part: "status-clock")
        if focusMode { out.shape(SVGSymbol.moon, x: 80, y: 18, size: 14, fill: ink, part: "focus") }
        out.shape("M0 1h1v-1z", x: 318, y: 18, size: 14, fill: ink)
        out.rect(x: 340, y: 17, width: 9, height: 16, fill: ink, rx: 2)
        out.circle(cx: 195, cy: 22, r: 6, fill: "#000000")
    }

    private var statusInkAndroid: String {
        locked || frontmost == nil || shield.map({ !SVGColor.isLight($0.backgroundColor) }) == true ? "#FFFFFF" : "#1C1B1F"
    }

    func drawAndroidLockScreen(_ out: inout SVGWriter) {
        out.text(date, x: 32, y: 110, size: 18, weight: "400", fill: "#E6E1E5", part: "lock-date")
        out.text(clock, x: 32, y: 200, size: 92, weight: "300", fill: "#FFFFFF", part: "lock-clock")
        out.shape(SVGSymbol.lock, x: 183, y: 770, size: 24, fill: "#FFFFFF")
    }

    func drawAndroidApp(_ app: Frontmost, _ out: inout SVGWriter) {
        out.rect(x: 0, y: 0, width: Self.width, height: Self.height, fill: "#FFFBFE")
        out.rect(x: 0, y: 0, width: Self.width, height: 120, fill: "#6750A4")
        out.text(app.name, x: 24, y: 96, size: 24, weight: "500", fill: "#FFFFFF", width: 342, part: "frontmost")
    }

    /// A notification as a Material card: the app's round icon and name, the title, the text.
    func drawAndroidCard(_ banner: Banner, y: Int, _ out: inout SVGWriter) {
        out.group(part: "banner") { out in
            out.rect(x: 12, y: y, width: 366, height: 88, fill: "#FFFFFF", rx: 24, stroke: "#CAC4D0")
            out.circle(cx: 34, cy: y + 22, r: 9, fill: SVGColor.iconColor(banner.app))
            out.text(banner.app, x: 50, y: y + 26, size: 12, fill: "#49454F", width: 316)
            out.text(banner.title, x: 26, y: y + 50, size: 15, weight: "500", fill: "#1C1B1F", width: 340,
                part: "banner-title")
            out.paragraph(banner.body, x: 26, y: y + 70, size: 13, width: 340, maxLines: 1, fill: "#49454F", anchor: "start",
                part: "banner-body")
        }
    }

    func drawNavigationBar(_ out: inout SVGWriter) {
        let ink = locked || frontmost == nil ? "#FFFFFF" : "#1C1B1F"
        out.group(part: "navigation-bar") { out in
            out.shape(SVGSymbol.back, x: 88, y: 806, size: 20, fill: ink, opacity: 0.8)
            out.shape(SVGSymbol.ring, x: 185, y: 806, size: 20, fill: ink, opacity: 0.8)
            out.shape(SVGSymbol.recents, x: 282, y: 806, size: 20, fill: ink, opacity: 0.8)
        }
    }
}
