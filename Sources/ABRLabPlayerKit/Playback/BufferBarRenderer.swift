import ABRLab

/// Draws buffering indicators as terminal lines (seed 004), one per item:
///
///     3g_1 12.3s ↑ ⇅ [###|#####............] Sufficient
///
/// title, buffered seconds, the fill-rate arrow (↑ above +0.1 s/s, ↓ below −0.1 s/s), the
/// network mark while downloading, the bar with the readiness marker at 15 % of its width, and
/// the state. With ANSI on, the bar and state take the state's colour, ↑ is green, ↓ orange, the
/// marker is bright once playback is likely to keep up, and a preloaded next item's line is
/// faint throughout. With ANSI off the output is plain text for logs and pipes.
public struct BufferBarRenderer: Sendable {
    /// What one line shows.
    public struct Item: Equatable, Sendable {
        /// Trace or video name; left out when empty.
        public var title: String
        public var indicator: BufferingIndicator

        public init(title: String, indicator: BufferingIndicator) {
            self.title = title
            self.indicator = indicator
        }
    }

    /// Fill rates beyond ±this show an arrow.
    public static let arrowThresholdSecondsPerSecond = 0.1

    /// Cells of the bar, readiness marker not counted; at least 1.
    public var barColumns: Int
    public var usesANSI: Bool
    /// Titles padded or cut (with `…`) to this many characters so bars line up; nil leaves them.
    public var titleColumns: Int?

    public init(barColumns: Int = 30, usesANSI: Bool = true, titleColumns: Int? = nil) {
        self.barColumns = barColumns
        self.usesANSI = usesANSI
        self.titleColumns = titleColumns
    }

    /// The current item's line and, when given, the preloaded next item's line under it, faint.
    public func render(_ current: Item, next: Item? = nil) -> String {
        guard let next else { return line(current, isDimmed: false) }
        return line(current, isDimmed: false) + "\n" + line(next, isDimmed: true)
    }

    /// One item's line, without a line ending.
    public func line(_ item: Item, isDimmed: Bool) -> String {
        let indicator = item.indicator
        var parts: [String] = []
        let title = fitted(item.title)
        if !title.isEmpty { parts.append(paint(title, nil, isDimmed)) }
        parts.append(paint(Self.formattedBuffer(indicator), nil, isDimmed))
        if indicator.fillRateSecondsPerSecond > Self.arrowThresholdSecondsPerSecond {
            parts.append(paint("↑", .green, isDimmed))
        } else if indicator.fillRateSecondsPerSecond < -Self.arrowThresholdSecondsPerSecond {
            parts.append(paint("↓", .orange, isDimmed))
        } else {
            parts.append(" ")
        }
        parts.append(indicator.isNetworkActive ? paint("⇅", .white, isDimmed) : " ")
        parts.append(bar(indicator, isDimmed: isDimmed))
        parts.append(paint(indicator.state.displayName, indicator.state.terminalColor, isDimmed))
        return parts.joined(separator: " ")
    }

    /// Buffered seconds with one decimal, `12.3s`; `--s` before the first reading.
    public static func formattedBuffer(_ indicator: BufferingIndicator) -> String {
        guard indicator.state != .unknown else { return "--s" }
        let tenths = Int((indicator.bufferSeconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)s"
    }

    /// `[` filled cells, empty cells and the marker after 15 % of the cells `]`.
    private func bar(_ indicator: BufferingIndicator, isDimmed: Bool) -> String {
        let columns = max(1, barColumns)
        let filled = min(columns, max(0, Int((indicator.progress * Double(columns)).rounded())))
        let marker = Int((BufferingIndicator.readinessFraction * Double(columns)).rounded())
        let fill = usesANSI ? "█" : "#"
        let empty = usesANSI ? "░" : "."
        let markerGlyph = usesANSI ? "│" : "|"
        let fillColor = indicator.state.terminalColor
        let trackColor = BufferState.TerminalColor.gray.dimmed
        let markerColor: BufferState.TerminalColor = indicator.isLikelyToKeepUp ? .white : .gray.dimmed

        func cells(_ range: Range<Int>) -> String {
            let filledCount = max(0, min(filled, range.upperBound) - range.lowerBound)
            let emptyCount = range.count - filledCount
            var text = ""
            if filledCount > 0 { text += paint(String(repeating: fill, count: filledCount), fillColor, isDimmed) }
            if emptyCount > 0 { text += paint(String(repeating: empty, count: emptyCount), trackColor, isDimmed) }
            return text
        }
        return paint("[", nil, isDimmed) + cells(0..<marker) + paint(markerGlyph, markerColor, isDimmed)
            + cells(marker..<columns) + paint("]", nil, isDimmed)
    }

    private func fitted(_ title: String) -> String {
        guard let width = titleColumns, width > 0 else { return title }
        if title.count > width { return String(title.prefix(width - 1)) + "…" }
        return title + String(repeating: " ", count: width - title.count)
    }

    /// `text` in `color` (nil: the terminal's own), faint when `isDimmed`; unchanged without ANSI.
    private func paint(_ text: String, _ color: BufferState.TerminalColor?, _ isDimmed: Bool) -> String {
        guard usesANSI else { return text }
        if let color { return (isDimmed ? color.dimmed : color).escape + text + Self.reset }
        return isDimmed ? "\u{1B}[2m" + text + Self.reset : text
    }

    private static let reset = "\u{1B}[0m"
}
