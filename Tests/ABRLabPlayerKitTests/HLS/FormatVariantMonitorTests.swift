import ABRLab
import ABRLabFormats
import ABRLabPlayerKit
import EngineFixtures
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite(.tags(.core), .selectedByTags) struct FormatVariantMonitorTests {
    /// What the observer closure received.
    final class Reported: Sendable {
        let formats = Mutex<[String]>([])
    }

    @Test func metadataCarriesFormatAndTime() {
        let metadata = FormatVariantMetadata(formatString: "HIGH", timestamp: .seconds(5))
        #expect(metadata.formatString == "HIGH")
        #expect(metadata.timestampSeconds == 5)
        #expect(metadata == FormatVariantMetadata(formatString: "HIGH", timestampSeconds: 5))
        #expect(metadata != FormatVariantMetadata(formatString: "HIGH", timestampSeconds: 6))
        #expect(metadata.description == "HIGH at 5.000s")
        #expect(FormatVariantMetadata(formatString: "LOW", timestampSeconds: 0.0425).description == "LOW at 0.043s")
    }

    @Test func reportsEachChangeOnce() {
        let reported = Reported()
        var monitor = FormatVariantMonitor { metadata in reported.formats.withLock { $0.append(metadata.formatString) } }
        let formats = ["HIGH", "HIGH", "LOSSLESS", "LOSSLESS", "HIGH"]
        let events = formats.enumerated().compactMap { index, format in
            monitor.observe(FormatVariantMetadata(formatString: format, timestampSeconds: Double(index) * 4))
        }
        #expect(events == [
            FormatVariantMetadata(formatString: "HIGH", timestampSeconds: 0),
            FormatVariantMetadata(formatString: "LOSSLESS", timestampSeconds: 8),
            FormatVariantMetadata(formatString: "HIGH", timestampSeconds: 16),
        ])
        #expect(reported.formats.withLock { $0 } == ["HIGH", "LOSSLESS", "HIGH"])
        #expect(monitor.lastReported?.formatString == "HIGH")
        monitor.reset()
        #expect(monitor.observe(FormatVariantMetadata(formatString: "HIGH", timestampSeconds: 20)) != nil)
    }

    @Test func takesTheFormatFromTheClientAttributeThenTheID() throws {
        let start = try HLSTestSupport.date("2025-10-29T10:30:45.123Z")
        let both = HLSDateRange(
            id: "HIGH", classIdentifier: "com.tidal.format", startDate: start,
            clientAttributes: [.init(name: "X-COM-TIDAL-FORMAT", value: .quoted("LOSSLESS"))]
        )
        #expect(both.isFormatVariant)
        #expect(both.formatString == "LOSSLESS")
        let idOnly = HLSDateRange(id: "HI_RES_LOSSLESS", classIdentifier: "com.tidal.format", startDate: start)
        #expect(idOnly.formatString == "HI_RES_LOSSLESS")
        let emptyAttribute = HLSDateRange(
            id: "LOW", classIdentifier: "com.tidal.format", startDate: start,
            clientAttributes: [.init(name: "X-COM-TIDAL-FORMAT", value: .quoted(""))]
        )
        #expect(emptyAttribute.formatString == "LOW")
        let otherClass = HLSDateRange(id: "HIGH", classIdentifier: "com.example.ad", startDate: start)
        #expect(otherClass.formatString == nil)
        var monitor = FormatVariantMonitor()
        #expect(monitor.observe(otherClass, timestampSeconds: 0) == nil)
        #expect(monitor.observe(idOnly, timestampSeconds: 2) == FormatVariantMetadata(formatString: "HI_RES_LOSSLESS", timestampSeconds: 2))
    }

    @Test func readsTheBackendsFourFormatsFromAPlaylist() throws {
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXT-X-PROGRAM-DATE-TIME:2025-10-29T10:30:00.000Z"]
        let formats = ["LOW", "LOW", "HIGH", "LOSSLESS", "HI_RES_LOSSLESS", "HI_RES_LOSSLESS"]
        for (index, format) in formats.enumerated() {
            let date = HLSDateTime.format(Date(timeIntervalSince1970: 1_761_733_800 + Double(index) * 4))
            // Alternate quoted and unquoted values and drop the client attribute on odd segments.
            lines.append(index.isMultiple(of: 2)
                ? #"#EXT-X-DATERANGE:ID="\#(format)",CLASS="com.tidal.format",START-DATE="\#(date)",X-COM-TIDAL-FORMAT="\#(format)""#
                : "#EXT-X-DATERANGE:ID=\(format),CLASS=\"com.tidal.format\",START-DATE=\(date)")
            lines += ["#EXTINF:4,", "s\(index).ts"]
        }
        let playlist = try HLSMediaPlaylist.parse(HLSTestSupport.text(lines), file: "audio.m3u8")
        #expect(playlist.formatVariants.map(\.formatString) == formats)
        #expect(playlist.formatChanges == [
            FormatVariantMetadata(formatString: "LOW", timestampSeconds: 0),
            FormatVariantMetadata(formatString: "HIGH", timestampSeconds: 8),
            FormatVariantMetadata(formatString: "LOSSLESS", timestampSeconds: 12),
            FormatVariantMetadata(formatString: "HI_RES_LOSSLESS", timestampSeconds: 16),
        ])
        #expect(playlist.distinctFormats == ["LOW", "HIGH", "LOSSLESS", "HI_RES_LOSSLESS"])
    }

    @Test func placesTagsAtTheirSegmentWithoutProgramDates() throws {
        let text = HLSTestSupport.text([
            "#EXTM3U", "#EXT-X-TARGETDURATION:4", "#EXTINF:4,", "a.ts",
            #"#EXT-X-DATERANGE:ID="LOSSLESS",CLASS="com.tidal.format",START-DATE="2025-10-29T10:30:00Z""#,
            "#EXTINF:4,", "b.ts",
        ])
        let playlist = try HLSMediaPlaylist.parse(text, file: "a.m3u8")
        #expect(playlist.formatChanges == [FormatVariantMetadata(formatString: "LOSSLESS", timestampSeconds: 4)])
    }
}
