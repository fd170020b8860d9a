import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An element of a parsed XML document, with where it starts, as the MPD reader needs it:
/// names without their namespace prefix, attributes by local name, child elements in order and
/// the text directly inside.
struct XMLElementNode: Equatable, Sendable {
    let name: String
    let attributes: [String: String]
    let children: [XMLElementNode]
    let text: String
    /// The line (1-based) the start tag is on.
    let line: Int

    /// The child elements named `name`, in document order.
    func children(named name: String) -> [XMLElementNode] { children.filter { $0.name == name } }

    /// The first child element named `name`.
    func child(named name: String) -> XMLElementNode? { children.first { $0.name == name } }

    /// Parses a whole document; malformed XML is an `InputError` naming `file`, the line and the
    /// column. Documents with a DTD are refused before parsing, so no entity is ever expanded.
    static func parseDocument(_ data: Data, file: String) throws(InputError) -> XMLElementNode {
        if let (line, column) = doctypePosition(data) {
            throw InputError(file: file, line: line, "column \(column): a DOCTYPE is not allowed in an MPD (entities are not expanded)")
        }
        let builder = XMLTreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        guard data.contains(where: { !(($0 == 0x20) || ($0 == 0x09) || ($0 == 0x0A) || ($0 == 0x0D)) }) else {
            throw InputError(file: file, line: 1, "column 1: malformed XML (the document is empty)")
        }
        let parsed = parser.parse()
        if let failure = builder.failure {
            throw InputError(file: file, line: failure.line, "column \(failure.column): \(failure.message)")
        }
        guard parsed, let root = builder.root else {
            let line = max(parser.lineNumber, 1)
            throw InputError(file: file, line: line, "column \(max(parser.columnNumber, 1)): malformed XML (the document ends early)")
        }
        return root
    }

    /// Line and column of the first `<!DOCTYPE`, if any.
    private static func doctypePosition(_ data: Data) -> (Int, Int)? {
        let marker = Array("<!DOCTYPE".utf8)
        let bytes = [UInt8](data)
        guard bytes.count >= marker.count else { return nil }
        var line = 1
        var lineStart = 0
        for index in 0...(bytes.count - marker.count) {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            } else if bytes[index] == marker[0], Array(bytes[index..<(index + marker.count)]) == marker {
                return (line, index - lineStart + 1)
            }
        }
        return nil
    }

    /// Words for the parser's error codes (libxml2's `xmlParserErrors`, which Linux Foundation
    /// passes on) that hand-edited MPDs meet most.
    static func reason(_ code: Int) -> String {
        switch code {
        case 4: "the document is empty"
        case 5: "content follows the root element"
        case 9: "a character is not allowed in XML"
        case 23, 26, 27: "an entity reference is not valid (write &amp; for &)"
        case 31, 32: "the encoding is not supported"
        case 38: "a < inside an attribute value"
        case 39, 40, 41, 43, 44: "an attribute value is not quoted"
        case 42: "an attribute is given twice"
        case 45: "a comment is not closed"
        case 68: "a name is missing or not valid"
        case 73: "a tag is not closed with >"
        case 74, 77: "the document ends inside an element"
        case 76: "an end tag does not match its start tag"
        default: "libxml2 error \(code)"
        }
    }
}

/// Builds the element tree from the parser's events, refusing documents too deep or too large
/// for any MPD, so memory stays bounded whatever the input.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    /// Deepest nesting an MPD reaches is 7 (MPD, Period, AdaptationSet, Representation,
    /// SegmentTemplate, SegmentTimeline, S); far more means the document is not one.
    static let maximumDepth = 64
    /// Most elements read: an hour of 1 s segments as `S` elements or `SegmentURL`s at 10 levels.
    static let maximumElements = 1_000_000

    struct Failure {
        let line: Int
        let column: Int
        let message: String
    }

    private struct Open {
        let name: String
        let attributes: [String: String]
        let line: Int
        var children: [XMLElementNode] = []
        var text = ""
    }

    private var stack: [Open] = []
    private var elements = 0
    private(set) var root: XMLElementNode?
    private(set) var failure: Failure?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements += 1
        guard stack.count < Self.maximumDepth, elements <= Self.maximumElements else {
            let what = stack.count >= Self.maximumDepth ? "elements nest deeper than \(Self.maximumDepth)" : "more than \(Self.maximumElements) elements"
            fail(parser, what)
            return
        }
        var local: [String: String] = [:]
        for (name, value) in attributes { local[Self.localName(name)] = value }
        stack.append(Open(name: Self.localName(elementName), attributes: local, line: max(parser.lineNumber, 1)))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let open = stack.popLast() else { return }
        let node = XMLElementNode(name: open.name, attributes: open.attributes, children: open.children, text: open.text, line: open.line)
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        // Only text an MPD uses (BaseURL) is short; a long text run is not read past a bound.
        if stack[stack.count - 1].text.utf8.count < 1 << 16 { stack[stack.count - 1].text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        self.parser(parser, foundCharacters: String(decoding: CDATABlock, as: UTF8.self))
    }

    /// The first error, where the parser stands when it finds it; later ones follow from it.
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        let code = (parseError as NSError).code
        // Namespace errors (an undeclared prefix) leave the document readable; libxml2 goes on.
        guard !(200..<300).contains(code) else { return }
        fail(parser, "malformed XML (\(XMLElementNode.reason(code)))")
    }

    private func fail(_ parser: XMLParser, _ message: String) {
        guard failure == nil else { return }
        failure = Failure(line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1), message: message)
        parser.abortParsing()
    }

    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }
}
