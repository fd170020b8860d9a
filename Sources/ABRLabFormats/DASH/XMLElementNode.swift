import ABRLab
import Foundation

/// An element of a parsed XML document, with where it starts, as the MPD reader needs it:
/// names without their namespace prefix, attributes by local name, child elements in order and
/// the text directly inside.
struct XMLElementNode: Equatable, Sendable {
    let name: String
    let attributes: [String: String]
    let children: [XMLElementNode]
    let text: String
    /// The line (1-based) the start tag begins on.
    let line: Int

    /// The child elements named `name`, in document order.
    func children(named name: String) -> [XMLElementNode] { children.filter { $0.name == name } }

    /// The first child element named `name`.
    func child(named name: String) -> XMLElementNode? { children.first { $0.name == name } }

    /// Parses a whole document; malformed XML is an `InputError` naming `file`, the line and the
    /// column (in bytes). A DOCTYPE is refused, so no entity beyond XML's five is ever expanded.
    ///
    /// abrlab reads XML itself rather than through Foundation's `XMLParser`: on Linux that one
    /// leaks on every malformed document and fails documents near a megabyte, the size of a long
    /// MPD's SegmentList.
    static func parseDocument(_ data: Data, file: String) throws(InputError) -> XMLElementNode {
        var reader = XMLReader(bytes: [UInt8](data), file: file)
        return try reader.document()
    }
}
