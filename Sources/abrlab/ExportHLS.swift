import ABRLab
import ABRLabFormats
import ABRLabPlayerKit
import ArgumentParser
import Foundation

extension Abrlab {
    struct ExportHLS: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hls",
            abstract: "Play one session and write its segments as an HLS media playlist.",
            discussion: """
                The playlist carries EXT-X-PROGRAM-DATE-TIME and, at each format change, an \
                EXT-X-DATERANGE with CLASS="com.tidal.format" and X-COM-TIDAL-FORMAT, so players and \
                the format-variant monitor see when the format changed. The first range of each format has \
                the format's name as its ID, as the backend writes it; a format that returns gets a numbered \
                ID (HIGH-2), since RFC 8216 forbids repeating an ID with other attributes. The playlist is \
                checked against RFC 8216 before it is written.

                Example:
                  abrlab export hls --strategy Strategies/bba.lua --trace Traces/3g/3g_1.csv --video audio --out /tmp/session.m3u8
                """
        )

        @Option(help: "A Lua script or a native id.")
        var strategy: String = "conservative"

        @Option(help: "One trace file.")
        var trace: String

        @OptionGroup var experiment: ExperimentOptions

        @Option(help: "Playlist file to write.")
        var out: String

        @Option(help: "Program date of the first segment (ISO 8601, e.g. 2025-10-29T10:30:00.000Z).")
        var startDate: String?

        @Option(help: "Segment URI template with {index}, {level}, {label} and {format}.")
        var segmentURI: String = HLSPlaylistWriter.defaultSegmentURITemplate

        func run() throws {
            try CommandFailure.guarding {
                let (plan, outcome) = try SingleSession.run(strategy: strategy, trace: trace, options: experiment)
                guard let result = outcome.result else { throw CommandFailure.exit(outcome.error ?? "the session failed") }
                var writer = HLSPlaylistWriter(segmentURITemplate: segmentURI)
                if let startDate {
                    guard let date = HLSDateTime.parse(startDate) else {
                        throw InputError(file: "--start-date", "'\(startDate)' is not an ISO 8601 date-time")
                    }
                    writer.startDate = date
                }
                try writer.writeMediaPlaylist(video: plan.video, session: result, to: URL(fileURLWithPath: out))
                let changes = FormatTimeline.changes(video: plan.video, session: result).count
                Console.print("wrote \(out): \(result.segments.count) segments, \(changes) format change(s)")
            }
        }
    }
}
