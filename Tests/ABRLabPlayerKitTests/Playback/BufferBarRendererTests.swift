import ABRLab
import ABRLabPlayerKit
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct BufferBarRendererTests {
    static func indicator(_ readings: [(bufferSeconds: Double, atSeconds: Double, downloading: Bool)]) -> BufferingIndicator {
        var indicator = BufferingIndicator()
        for reading in readings {
            indicator.update(bufferSeconds: reading.bufferSeconds, atSeconds: reading.atSeconds, isNetworkActive: reading.downloading)
        }
        return indicator
    }

    static let filling = indicator([(12.3, 1, true)])
    static let draining = indicator([(12.3, 1, true), (11, 2, false)])
    static let critical = indicator([(2, 1, false), (2.05, 2, false)])

    static func strippingANSI(_ text: String) -> String {
        var result = ""
        var inEscape = false
        for character in text {
            if character == "\u{1B}" { inEscape = true } else if inEscape { if character == "m" { inEscape = false } } else { result.append(character) }
        }
        return result
    }

    @Test func plainLinesAreExact() {
        let renderer = BufferBarRenderer(barColumns: 20, usesANSI: false)
        #expect(renderer.render(.init(title: "3g_1", indicator: Self.filling)) == "3g_1 12.3s ↑ ⇅ [###|#####............] Sufficient")
        #expect(renderer.render(.init(title: "3g_1", indicator: Self.draining)) == "3g_1 11.0s ↓   [###|####.............] Sufficient")
        #expect(renderer.render(.init(title: "", indicator: Self.critical)) == "2.1s     [#..|.................] Critical")
        #expect(renderer.render(.init(title: "full", indicator: Self.indicator([(45, 1, false)])))
            == "full 45.0s ↑   [###|#################] Excellent")
    }

    @Test func plainNextItemGoesUnderneath() {
        let renderer = BufferBarRenderer(barColumns: 20, usesANSI: false, titleColumns: 6)
        let text = renderer.render(
            .init(title: "3g_1", indicator: Self.filling), next: .init(title: "a-very-long-name", indicator: BufferingIndicator())
        )
        #expect(text == """
            3g_1   12.3s ↑ ⇅ [###|#####............] Sufficient
            a-ver… --s     [...|.................] Unknown
            """)
    }

    @Test func formatsBufferedSecondsWithOneDecimal() {
        #expect(BufferBarRenderer.formattedBuffer(Self.indicator([(0.04, 1, false)])) == "0.0s")
        #expect(BufferBarRenderer.formattedBuffer(Self.indicator([(12.25, 1, false)])) == "12.3s")
        #expect(BufferBarRenderer.formattedBuffer(Self.indicator([(59.99, 1, false)])) == "60.0s")
        #expect(BufferBarRenderer.formattedBuffer(BufferingIndicator()) == "--s")
    }

    @Test func colorsFollowTheSeedsScheme() {
        #expect(BufferState.allCases.map(\.terminalColor.sgrParameters) == [
            "2;38;5;245", "38;5;196", "2;38;5;196", "38;5;208", "38;5;226", "2;38;5;46", "38;5;46",
        ])
        #expect(BufferState.allCases.map(\.displayName) == ["Unknown", "Empty", "Critical", "Low", "Sufficient", "Good", "Excellent"])
        #expect(BufferState.low.terminalColor.escape == "\u{1B}[38;5;208m")
    }

    @Test func ansiLinesCarryTheColourCodes() {
        let renderer = BufferBarRenderer(barColumns: 20)
        let filling = renderer.render(.init(title: "3g_1", indicator: Self.filling))
        #expect(Self.strippingANSI(filling) == "3g_1 12.3s ↑ ⇅ [███│█████░░░░░░░░░░░░] Sufficient")
        #expect(filling.contains("\u{1B}[38;5;226m███\u{1B}[0m"))
        #expect(filling.contains("\u{1B}[38;5;46m↑\u{1B}[0m"))
        #expect(filling.contains("\u{1B}[38;5;255m⇅\u{1B}[0m"))
        #expect(filling.contains("\u{1B}[38;5;255m│\u{1B}[0m"))
        #expect(filling.contains("\u{1B}[2;38;5;245m░░░░░░░░░░░░\u{1B}[0m"))
        let draining = renderer.render(.init(title: "3g_1", indicator: Self.draining))
        #expect(draining.contains("\u{1B}[38;5;208m↓\u{1B}[0m"))
        let critical = renderer.render(.init(title: "x", indicator: Self.critical))
        #expect(critical.contains("\u{1B}[2;38;5;196m█\u{1B}[0m"))
        #expect(critical.contains("\u{1B}[2;38;5;245m│\u{1B}[0m"))
    }

    @Test func ansiNextItemIsFaintThroughout() {
        let renderer = BufferBarRenderer(barColumns: 20)
        let lines = renderer.render(.init(title: "now", indicator: Self.filling), next: .init(title: "next", indicator: Self.draining))
            .split(separator: "\n")
        #expect(lines.count == 2)
        #expect(!lines[0].contains("\u{1B}[2m"))
        #expect(lines[1].contains("\u{1B}[2mnext\u{1B}[0m"))
        #expect(lines[1].contains("\u{1B}[2;38;5;208m↓"))
        #expect(!lines[1].contains("\u{1B}[38;5"))
    }
}
