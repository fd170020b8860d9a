import ABRLab
import ABRLabCompare
import ABRLabFormats
import ArgumentParser
import Foundation

extension Abrlab {
    struct VideosImport: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Write a folder of encoded output as a Sabre manifest.",
            discussion: """
                PATH is a static DASH MPD with its media, a folder holding one, or a folder of level folders of \
                segment files. An MPD gives the ladder (@bandwidth), the segment duration and the sizes (docs/emulation.md \
                says how). Level folders need --segment-duration-s; levels go from the fewest bytes to the most, \
                their bitrates --ladder-kbps or else each level's mean. The manifest records the source under "source".

                Examples:
                  abrlab videos import encoded/manifest.mpd --out video.json
                  abrlab videos import encoded/ --segment-duration-s 4 --out video.json
                """
        )

        @Argument(help: "An MPD, a folder holding one, or a folder of level folders.")
        var path: String
        @Option(help: "Manifest file to write.")
        var out: String
        @Option(name: .setting(.ladderKbps), help: .setting(.ladderKbps, in: "videos import"))
        var ladderKbps: String?
        @Option(name: .setting(.segmentDurationS), help: .setting(.segmentDurationS, in: "videos import"))
        var segmentDurationSeconds: String?

        func run() throws {
            try CommandFailure.guarding {
                let ladder = try Setting.ladderKbps.value(ladderKbps)?.numbers
                let seconds = try Setting.segmentDurationS.value(segmentDurationSeconds)?.number
                let imported = try VideoImporter.read(path, ladderKbps: ladder, segmentDurationSeconds: seconds)
                imported.warnings.forEach { CommandFailure.warn($0.commandLineText) }
                let video = imported.video
                try VideoWriter.writeSabreManifest(video, source: imported.source, to: URL(fileURLWithPath: out))
                Console.print(
                    "wrote \(out): \(video.levelCount) levels, \(video.segmentCount) segments of "
                        + "\(video.segmentDurationSeconds) s from \(imported.source.path)"
                )
            }
        }
    }
}
