import ABRLab
import ABRLabFormats
import Foundation
import Testing
import TestSupport

@Suite(.tags(.cli, .golden), .selectedByTags) struct ReplayAndExportTests {
    static let session = ["--strategy", "Strategies/bba.lua", "--trace", "Traces/default/3g_1.csv", "--video", "Traces/video.json"]

    @Test func replayPrintsPlainLinesWhenNotATerminal() throws {
        let result = try CLI.run(["replay"] + Self.session)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}["))
        try CLI.expectGolden(result.stdout, "replay-bba-3g_1.txt")
    }

    static var hasScript: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }

    /// Under a pseudo-terminal (util-linux `script`) the replay draws coloured bars in place,
    /// playing the next trace as a dimmed second bar while it preloads.
    @Test(.enabled(if: hasScript, "/usr/bin/script not installed; the pseudo-terminal replay check is skipped"))
    func replayDrawsColouredBarsInATerminal() throws {
        let arguments = ["replay", "--strategy", "Strategies/bba.lua", "--trace", "Traces/default/3g_1.csv", "Traces/default/broadband_1.csv", "--video", "Traces/video.json", "--speed", "5000"]
        let command = ([CLI.binary.path] + arguments)
            .map { "'\($0)'" }.joined(separator: " ")
        let result = try CLI.runTool("/usr/bin/script", ["-qfec", command, "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        let screen = result.stdout
        #expect(screen.contains("3g_1") && screen.contains("broadband_1"))
        #expect(screen.contains("\u{1B}[38;5;196m"), "empty/critical red is drawn")
        #expect(screen.contains("\u{1B}[38;5;46m"), "excellent green is drawn")
        #expect(screen.contains("█") && screen.contains("│"), "bar and readiness marker")
        #expect(screen.contains("\u{1B}[2;"), "the preloaded next item is dimmed")
        // Frames are redrawn in place (cursor up, clear line), not printed one per line.
        let frames = screen.components(separatedBy: "\r\u{1B}[2K").count - 1
        let cursorUps = screen.components(separatedBy: "\u{1B}[1A").count - 1
        #expect(frames > 100)
        #expect(cursorUps >= frames - 2)
    }

    @Test func exportedPlaylistRoundTripsItsFormatChanges() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let playlist = folder.appendingPathComponent("session.m3u8")
        let export = try CLI.run(["export", "hls", "--strategy", "Strategies/bba.lua", "--trace", "Traces/default/3g_1.csv", "--video", "audio", "--out", playlist.path])
        #expect(export.status == 0, "\(export.stderr)")
        let text = try CLI.read(playlist)
        #expect(text.contains(#"#EXT-X-DATERANGE:ID="HIGH",CLASS="com.tidal.format",START-DATE="2025-10-29T10:30:00.000Z",X-COM-TIDAL-FORMAT="HIGH""#))
        let parsed = try HLSMediaPlaylist.parse(text, file: "session.m3u8")
        #expect(parsed.rfc8216Violations() == [])
        #expect(Set(parsed.dateRanges.map(\.id)).count == parsed.dateRanges.count, "every DATERANGE has its own ID")
        #expect(parsed.dateRanges.count > Set(parsed.formatChanges.map(\.formatString)).count, "a format returns in this session")

        let out = folder.appendingPathComponent("results")
        let compare = try CLI.run(["compare", "--strategies", "Strategies/bba.lua", "--traces", "Traces/default/3g_1.csv", "--video", "audio", "--out", out.path, "--quiet"])
        #expect(compare.status == 0, "\(compare.stderr)")
        let formats = try CLI.read(out.appendingPathComponent("formats.csv")).split(separator: "\n").dropFirst()
        #expect(parsed.formatChanges.map(\.formatString) == formats.map { String($0.split(separator: ",")[4]) })
    }

    @Test func formatsAreWrittenOnlyForVideosWithFormats() throws {
        let out = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLI.run(["compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--video", "Traces/video.json", "--out", out.path, "--quiet"])
        #expect(result.status == 0)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("formats.csv").path))
    }
}
