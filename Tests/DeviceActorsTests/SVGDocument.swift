import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An SVG document as an XML parser reads it: each element with its attributes and the text
/// directly inside it, in document order. Parsing fails (``error``) on anything that is not
/// well-formed XML, as a browser would refuse it.
final class SVGDocument: NSObject, XMLParserDelegate {
    struct Element {
        let name: String
        let attributes: [String: String]
        var text = ""
    }

    private(set) var elements: [Element] = []
    private(set) var error: String?
    private var open: [Int] = []

    init(_ svg: String) {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        if !parser.parse() { error = parser.parserError.map { "\($0)" } ?? "not well-formed" }
    }

    /// The elements whose `data-part` is `part`.
    func parts(_ part: String) -> [Element] { elements.filter { $0.attributes["data-part"] == part } }

    /// The text of the element `part`, its `tspan` lines joined by spaces.
    func text(of part: String) -> String? {
        guard let index = elements.firstIndex(where: { $0.attributes["data-part"] == part }) else { return nil }
        let lines = lines(of: part)
        return lines.isEmpty ? elements[index].text : lines.joined(separator: " ")
    }

    /// The `tspan` lines inside the element `part`.
    func lines(of part: String) -> [String] {
        guard let index = elements.firstIndex(where: { $0.attributes["data-part"] == part }) else { return [] }
        return elements[(index + 1)...].prefix { $0.name == "tspan" }.map(\.text)
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        open.append(elements.count)
        elements.append(Element(name: name, attributes: attributes))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let index = open.last { elements[index].text += string }
    }
}
