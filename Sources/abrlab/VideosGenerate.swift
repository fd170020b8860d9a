import ABRLab
import ABRLabCompare
import ABRLabFormats
import ArgumentParser
import Foundation

extension Abrlab {
    struct VideosGenerate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Generate a seeded synthetic VBR video and write it as a Sabre manifest.",
            discussion: """
                Each segment gets a scene complexity shared by all levels (log-normal with --complexity-spread, \
                correlated from segment to segment by --complexity-correlation); each level adds log-normal noise \
                (--level-noise). Sizes stay ordered by level.

                Example:
                  abrlab videos generate --out Traces/video.json --ladder-kbps 300,750,1200,1850,2850,4300 --segments 48
                """
        )

        @Option(help: "Manifest file to write.")
        var out: String
        @Option(name: .customLong("ladder-kbps"), help: "Distinct ascending bitrates, above 0 and at most 1e9.")
        var ladderKbps: String = "300,750,1200,1850,2850,4300"
        @Option(name: .customLong("segment-duration-s"), help: "Segment duration, s (at most 86400).")
        var segmentDurationSeconds: Double = 4
        @Option(help: "Number of segments (segments × levels at most 10 million).")
        var segments: Int = 48
        @Option(name: .setting(.complexitySpread), help: .setting(.complexitySpread, showsDefault: false))
        var complexitySpread: Double = 0.25
        @Option(name: .setting(.complexityCorrelation), help: .setting(.complexityCorrelation, showsDefault: false))
        var complexityCorrelation: Double = 0.7
        @Option(name: .setting(.levelNoise), help: .setting(.levelNoise, showsDefault: false))
        var levelNoise: Double = 0.05
        @Option(help: "Seed. (default: 1)", transform: OptionParsing.seed) var seed: UInt64 = 1

        func run() throws {
            try CommandFailure.guarding {
                var generator = SyntheticVideoGenerator()
                generator.ladderKbps = try SettingParsing.kbpsList(ladderKbps, setting: .ladderKbps)
                generator.segmentDurationSeconds = segmentDurationSeconds
                generator.segmentCount = segments
                generator.complexitySpread = complexitySpread
                generator.complexityCorrelation = complexityCorrelation
                generator.levelNoise = levelNoise
                generator.seed = seed
                let url = URL(fileURLWithPath: out)
                let video = try generator.generate(name: url.deletingPathExtension().lastPathComponent)
                try VideoWriter.writeSabreManifest(video, to: url)
                Console.print("wrote \(out): \(video.levelCount) levels, \(video.segmentCount) segments of \(segmentDurationSeconds) s")
            }
        }
    }
}
