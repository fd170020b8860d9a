import ABRLab

extension HLSDateRange {
    /// The `CLASS` of the backend's format metadata (seed 003).
    public static let formatClass = "com.tidal.format"
    /// The client attribute that names the format.
    public static let formatAttribute = "X-COM-TIDAL-FORMAT"

    /// Whether the tag is format metadata: `CLASS="com.tidal.format"`.
    public var isFormatVariant: Bool { classIdentifier == Self.formatClass }

    /// The format this tag announces: `X-COM-TIDAL-FORMAT`, falling back to `ID` (the backend
    /// writes the name in both); nil for other classes and for empty names.
    public var formatString: String? {
        guard isFormatVariant else { return nil }
        if let format = clientAttribute(Self.formatAttribute)?.string, !format.isEmpty { return format }
        return id.isEmpty ? nil : id
    }
}
