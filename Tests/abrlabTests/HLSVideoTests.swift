import Foundation
import Testing
import TestSupport

@Suite(.tags(.cli), .selectedByTags) struct HLSVideoTests {
    /// A two-variant HLS ladder on disk: sizes from BYTERANGE, formats from DATERANGE tags.
    static func writeLadder(in folder: URL) throws -> URL {
        let master = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=320000,CODECS="mp4a.40.2"
            high/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS="flac"
            lossless/index.m3u8

            """
        try master.write(to: folder.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        for (name, format, bytes) in [("high", "HIGH", 160_000), ("lossless", "LOSSLESS", 500_000)] {
            var media = """
                #EXTM3U
                #EXT-X-TARGETDURATION:4
                #EXT-X-PROGRAM-DATE-TIME:2025-10-29T10:30:00.000Z
                #EXT-X-DATERANGE:ID="\(format)",CLASS="com.tidal.format",START-DATE="2025-10-29T10:30:00.000Z",X-COM-TIDAL-FORMAT="\(format)"

                """
            for segment in 0..<10 {
                media += "#EXTINF:4.0,\n#EXT-X-BYTERANGE:\(bytes + segment)@\(segment * 1_000_000)\nmedia.mp4\n"
            }
            media += "#EXT-X-ENDLIST\n"
            let sub = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try media.write(to: sub.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
        }
        return folder.appendingPathComponent("master.m3u8")
    }

    @Test func compareReadsAMasterPlaylistAndReportsFormats() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let master = try Self.writeLadder(in: folder)
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", "Strategies/bba.lua", "--traces", "Traces/default/3g_1.csv", "--video", master.path, "--out", out.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let segments = try CLI.read(out.appendingPathComponent("segments.csv")).split(separator: "\n").dropFirst()
        #expect(segments.count == 10)
        // bba starts at its second level, LOSSLESS here: the size is that variant's first BYTERANGE length.
        #expect(segments.first.map { String($0.split(separator: ",")[5]) } == "500000")
        let formats = try CLI.read(out.appendingPathComponent("formats.csv")).split(separator: "\n").dropFirst()
        #expect(!formats.isEmpty)
        #expect(formats.allSatisfy { $0.contains(",HIGH,") || $0.contains(",LOSSLESS,") })
    }

    /// A segment file that is a FIFO is refused naming it: its size, 0, says nothing of the
    /// segment, and no byte of it is ever read.
    @Test func aSegmentFileThatIsAFIFOIsRefusedNamingIt() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let master = try Self.writeLadder(in: folder)
        let media = folder.appendingPathComponent("high/index.m3u8")
        try CLI.read(media).replacingOccurrences(of: "#EXT-X-BYTERANGE:160000@0\n", with: "").write(to: media, atomically: true, encoding: .utf8)
        let fifo = folder.appendingPathComponent("high/media.mp4")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--video", master.path, "--out", out.path])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(fifo.path): is a FIFO (named pipe), not a regular file; inputs are read from files\n")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("sessions.csv").path))
    }

    @Test func aMalformedPlaylistNamesItsLine() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let master = folder.appendingPathComponent("master.m3u8")
        try "#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"avc1\"\nlow.m3u8\n".write(to: master, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--video", master.path, "--out", out.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("master.m3u8:2:"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
