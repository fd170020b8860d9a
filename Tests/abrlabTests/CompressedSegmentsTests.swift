import ABRLab
import ABRLabResults
import Foundation
import Testing
import TestSupport

/// `--segments-format csv.gz` and `csv.zst` through the CLI: the plain rows, whatever `--jobs`, in
/// blocks a trace of more than 1 MiB of rows needs several of, in either format.
@Suite(.tags(.cli), .selectedByTags) struct CompressedSegmentsTests {
    /// Five strategy rows over a video of 1000 segments: about 1.2 MB of segment rows per trace.
    static func run(in folder: URL) throws -> [String] {
        let video = folder.appendingPathComponent("long.json")
        let generated = try CLI.run(["videos", "generate", "--out", video.path, "--segments", "1000", "--seed", "3"])
        #expect(generated.status == 0, "\(generated.stderr)")
        return [
            "compare", "--strategies", "conservative", "bba-native", "Strategies/bola.lua", "--param", "bola.gp=3,5,8",
            "--traces", "Traces/default/3g_1.csv", "Traces/default/4g_1.csv", "--video", video.path, "--quiet",
        ]
    }

    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    @Test(arguments: [SegmentsFormat.csvGzip, .csvZstd])
    func compressedSegmentsHoldThePlainRowsWhateverTheJobs(format: SegmentsFormat) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.run(in: folder)
        let name = try #require(format.fileName)
        let compression = try #require(FileCompression(fileName: name))
        let plain = folder.appendingPathComponent("plain")
        #expect(try CLI.run(run + ["--out", plain.path, "--jobs", "2"]).status == 0)
        let rows = try Self.bytes(plain.appendingPathComponent("segments.csv"))
        #expect(rows.count > 2 * compression.blockBytes, "each of the two traces needs more than one block")
        var files: [[UInt8]] = []
        for jobs in [1, 2, 3] {
            let out = folder.appendingPathComponent("jobs-\(jobs)")
            let result = try CLI.run(run + ["--segments-format", format.rawValue, "--out", out.path, "--jobs", "\(jobs)"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("segments.csv").path))
            files.append(try Self.bytes(out.appendingPathComponent(name)))
            for other in ["sessions.csv", "transitions.csv", "summary.csv"] {
                #expect(try Self.bytes(out.appendingPathComponent(other)) == Self.bytes(plain.appendingPathComponent(other)), "\(other) changed")
            }
        }
        #expect(files.allSatisfy { $0 == files[0] }, "\(name) depends on --jobs")
        #expect(compression.decompress(files[0]) == rows)
        #expect(files[0].count < rows.count / 3)
        let manifest = try String(contentsOf: folder.appendingPathComponent("jobs-1/run.json"), encoding: .utf8)
        #expect(manifest.contains("\"\(name)\""))
    }

    /// diff reads sessions.csv, whatever the segments' format; a folder's compressed segments
    /// go when the next run writes them plain.
    @Test func foldersOfEveryFormatDiffAndReplaceOneAnother() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = DiffTests.base
        let zstd = folder.appendingPathComponent("zstd")
        let gzip = folder.appendingPathComponent("gzip")
        #expect(try CLI.run(run + ["--segments-format", "csv.zst", "--out", zstd.path]).status == 0)
        #expect(try CLI.run(run + ["--segments-format", "csv.gz", "--out", gzip.path]).status == 0)
        let same = try CLI.run(["diff", zstd.path, gzip.path])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("no session changed"))

        #expect(try CLI.run(run + ["--out", zstd.path]).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: zstd.path)
        #expect(names.contains("segments.csv") && !names.contains("segments.csv.zst"), "\(names)")

        // A compressed file no run.json lists is someone else's: the folder is refused.
        let foreign = folder.appendingPathComponent("foreign")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data(Zstd.frame(Array("a,b\n".utf8))).write(to: foreign.appendingPathComponent("segments.csv.zst"))
        let refused = try CLI.run(run + ["--out", foreign.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("segments.csv.zst: not written by a run abrlab recorded"), "\(refused.stderr)")
    }
}
