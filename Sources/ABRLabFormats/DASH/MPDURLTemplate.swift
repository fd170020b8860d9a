import ABRLab

/// A `SegmentTemplate@media` string (ISO/IEC 23009-1 §5.3.9.4.4): text with `$RepresentationID$`,
/// `$Number$`, `$Bandwidth$` and `$Time$` identifiers, the last three optionally with a width
/// such as `$Number%05d$`, and `$$` for a dollar sign.
struct MPDURLTemplate: Equatable, Sendable {
    enum Identifier: String, Sendable {
        case representationID = "RepresentationID"
        case number = "Number"
        case bandwidth = "Bandwidth"
        case time = "Time"
    }

    enum Part: Equatable, Sendable {
        case text(String)
        case identifier(Identifier, width: Int)
    }

    let parts: [Part]

    /// Widest zero padding read: far beyond any number an MPD writes.
    static let maximumWidth = 32

    /// Parses `text`; the reason it is not a template otherwise.
    static func parse(_ text: String) -> Result<MPDURLTemplate, MPDURLTemplateError> {
        var parts: [Part] = []
        let pieces = text.split(separator: "$", omittingEmptySubsequences: false)
        // Pieces alternate text and identifier, so a well-formed template splits into an odd count.
        guard pieces.count % 2 == 1 else { return .failure(.unclosedDollar) }
        for (index, piece) in pieces.enumerated() {
            if index % 2 == 0 {
                if !piece.isEmpty { parts.append(.text(String(piece))) }
                continue
            }
            if piece.isEmpty {
                parts.append(.text("$"))
                continue
            }
            let name: Substring
            var width = 1
            if let percent = piece.firstIndex(of: "%") {
                name = piece[..<percent]
                let format = piece[piece.index(after: percent)...]
                guard format.hasPrefix("0"), format.hasSuffix("d"), format.count >= 3,
                      let value = Int(format.dropFirst().dropLast()), (1...maximumWidth).contains(value) else {
                    return .failure(.badFormat(String(piece)))
                }
                width = value
            } else {
                name = piece
            }
            guard let identifier = Identifier(rawValue: String(name)) else { return .failure(.unknownIdentifier(String(name))) }
            if identifier == .representationID, width != 1 || piece.contains("%") { return .failure(.badFormat(String(piece))) }
            parts.append(.identifier(identifier, width: width))
        }
        return .success(MPDURLTemplate(parts: parts))
    }

    /// Whether the template names `identifier`.
    func uses(_ identifier: Identifier) -> Bool {
        parts.contains { if case .identifier(identifier, _) = $0 { true } else { false } }
    }

    /// The URL of one segment.
    func expand(representationID: String, number: Int, bandwidth: Int, time: Int) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let literal): text += literal
            case .identifier(.representationID, _): text += representationID
            case .identifier(let identifier, let width):
                let value = identifier == .number ? number : identifier == .bandwidth ? bandwidth : time
                let digits = String(value)
                text += String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
        }
        return text
    }
}

enum MPDURLTemplateError: Error, Equatable {
    case unclosedDollar
    case badFormat(String)
    case unknownIdentifier(String)

    var message: String {
        switch self {
        case .unclosedDollar: "has a $ without its closing $ (write $$ for a dollar sign)"
        case .badFormat(let piece): "has $\(InputError.excerpt(piece))$; a width is written %0Nd (N from 1 to \(MPDURLTemplate.maximumWidth)), and not for RepresentationID"
        case .unknownIdentifier(let name): "has $\(InputError.excerpt(name))$; abrlab knows $RepresentationID$, $Number$, $Bandwidth$ and $Time$"
        }
    }
}
