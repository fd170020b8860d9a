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
        @Option(name: .setting(.ladderKbps), help: .setting(.ladderKbps, in: Self.command))
        var ladderKbps: String?
        @Option(name: .setting(.segmentDurationS), help: .setting(.segmentDurationS, in: Self.command))
        var segmentDurationSeconds: String?
        @Option(name: .setting(.segments), help: .setting(.segments, in: Self.command))
        var segments: String?
        @Option(name: .setting(.complexitySpread), help: .setting(.complexitySpread))
        var complexitySpread: String?
        @Option(name: .setting(.complexityCorrelation), help: .setting(.complexityCorrelation))
        var complexityCorrelation: String?
        @Option(name: .setting(.levelNoise), help: .setting(.levelNoise))
        var levelNoise: String?
        @Option(name: .setting(.seed), help: .setting(.seed, in: Self.command)) var seed: String?

        /// How the settings table names this command.
        static let command = "videos generate"

        func run() throws {
            try CommandFailure.guarding {
                var generator = SyntheticVideoGenerator()
                if let ladder = try Setting.ladderKbps.value(ladderKbps)?.numbers { generator.ladderKbps = ladder }
                try NumberOptions(options: [
                    (.segmentDurationS, segmentDurationSeconds, \.segmentDurationSeconds), (.complexitySpread, complexitySpread, \.complexitySpread),
                    (.complexityCorrelation, complexityCorrelation, \.complexityCorrelation), (.levelNoise, levelNoise, \.levelNoise),
                ]).apply(to: &generator)
                if let count = try Setting.segments.value(segments)?.integer { generator.segmentCount = count }
                if let seed = try Setting.seed.value(seed)?.seed { generator.seed = seed }
                let url = URL(fileURLWithPath: out)
                let video = try generator.generate(name: url.deletingPathExtension().lastPathComponent)
                try VideoWriter.writeSabreManifest(video, to: url)
                Console.print("wrote \(out): \(video.levelCount) levels, \(video.segmentCount) segments of \(generator.segmentDurationSeconds) s")
            }
        }
    }
}
