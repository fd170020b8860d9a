import ABRLab

extension BufferState {
    /// A terminal foreground colour: an entry of the ANSI 256-colour palette, optionally faint.
    /// Faint stands in for the seed's reduced opacity.
    public struct TerminalColor: Equatable, Hashable, Sendable {
        public let paletteIndex: UInt8
        public let isDimmed: Bool

        public init(paletteIndex: UInt8, isDimmed: Bool = false) {
            self.paletteIndex = paletteIndex
            self.isDimmed = isDimmed
        }

        public static let gray = TerminalColor(paletteIndex: 245)
        public static let red = TerminalColor(paletteIndex: 196)
        public static let orange = TerminalColor(paletteIndex: 208)
        public static let yellow = TerminalColor(paletteIndex: 226)
        public static let green = TerminalColor(paletteIndex: 46)
        public static let white = TerminalColor(paletteIndex: 255)

        public var dimmed: TerminalColor { TerminalColor(paletteIndex: paletteIndex, isDimmed: true) }

        /// SGR parameters, e.g. `2;38;5;196` for faint red.
        public var sgrParameters: String { (isDimmed ? "2;" : "") + "38;5;\(paletteIndex)" }

        /// The escape sequence that selects the colour.
        public var escape: String { "\u{1B}[\(sgrParameters)m" }
    }

    /// The seed's colour scheme: unknown faint gray, empty red, critical faint red, low orange,
    /// sufficient yellow, good faint green, excellent green.
    public var terminalColor: TerminalColor {
        switch self {
        case .unknown: .gray.dimmed
        case .empty: .red
        case .critical: .red.dimmed
        case .low: .orange
        case .sufficient: .yellow
        case .good: .green.dimmed
        case .excellent: .green
        }
    }

    /// Name for people: `Sufficient`.
    public var displayName: String {
        switch self {
        case .unknown: "Unknown"
        case .empty: "Empty"
        case .critical: "Critical"
        case .low: "Low"
        case .sufficient: "Sufficient"
        case .good: "Good"
        case .excellent: "Excellent"
        }
    }
}
