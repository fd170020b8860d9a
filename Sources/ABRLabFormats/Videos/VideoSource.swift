import ABRLab

/// Where an imported video came from, as `abrlab videos import` records it in the manifest's
/// `source` object: the path imported, its kind, how segments were addressed and the levels'
/// names there. Loaders accept and ignore it; it is for the researcher reading the file.
public struct VideoSource: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case mpd = "dash-mpd"
        case segmentFolders = "segment-folders"
    }

    public let kind: Kind
    /// The folder or MPD as the user gave it.
    public let path: String
    /// For an MPD, the addressing of each level (`SegmentTemplate`); for folders, the file name pattern.
    public let addressing: [String]
    /// Each level's Representation id or folder name, lowest first.
    public let levels: [String]

    public init(kind: Kind, path: String, addressing: [String], levels: [String]) {
        self.kind = kind
        self.path = path
        self.addressing = addressing
        self.levels = levels
    }

    /// The manifest key the record sits under.
    public static let manifestKey = "source"

    /// The record as a JSON object on one line.
    var json: String {
        let list = { (values: [String]) in "[" + values.map(Self.quoted).joined(separator: ", ") + "]" }
        return "{ \"kind\": \(Self.quoted(kind.rawValue)), \"path\": \(Self.quoted(path)), "
            + "\"addressing\": \(list(addressing)), \"levels\": \(list(levels)), \"imported_by\": \(Self.quoted("abrlab " + ABRLabVersion.current)) }"
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
