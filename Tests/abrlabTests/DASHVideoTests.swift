import Foundation
import Testing
import TestSupport

/// DASH MPDs made by ffmpeg's dash muxer (Fixtures/dash, made by its make-fixtures.sh), read
/// through the CLI: every segment size equals the bytes of that segment on disk, and an MPD
/// and its import give the same sessions.
@Suite(.tags(.cli), .selectedByTags) struct DASHVideoTests {
    static let fixtures = CLI.packageRoot.appendingPathComponent("Tests/abrlabTests/Fixtures/dash")

    /// The fixtures' MPDs, one per addressing form, and how the test finds each level's
    /// segments on disk without the MPD.
    enum Form: String, CaseIterable, Sendable {
        case template = "template/manifest.mpd"
        case timeline = "timeline/manifest.mpd"
        case segmentList = "single-file/manifest.mpd"
        case segmentBase = "single-file/segment-base.mpd"

        var path: String { DASHVideoTests.fixtures.appendingPathComponent(rawValue).path }

        /// Sizes by level (Representation ids 0, 1, 2, ascending bandwidth), segment by segment:
        /// the segment files' sizes in number (or time) order, or a single file's moof+mdat pairs.
        func sizesOnDisk() throws -> [[Int]] {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            return try (0..<3).map { level in
                switch self {
                case .template: try DASHVideoTests.fileSizes(in: folder, prefix: "chunk-stream\(level)-")
                case .timeline: try DASHVideoTests.fileSizes(in: folder, prefix: "seg-\(level)-")
                case .segmentList, .segmentBase:
                    try DASHVideoTests.fragmentSizes(folder.appendingPathComponent("manifest-stream\(level).mp4"))
                }
            }
        }
    }

    /// Sizes of the files named `prefix` + a number + `.m4s`, in numeric order.
    static func fileSizes(in folder: URL, prefix: String) throws -> [Int] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(prefix) && $0.hasSuffix(".m4s") }
        let ordered = names.sorted { Int($0.dropFirst(prefix.count).dropLast(4))! < Int($1.dropFirst(prefix.count).dropLast(4))! }
        return try ordered.map { try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($0).path)[.size] as! Int }
    }

    /// The size of each `moof` box with the `mdat` after it: one media segment of a fragmented MP4.
    static func fragmentSizes(_ url: URL) throws -> [Int] {
        let bytes = [UInt8](try Data(contentsOf: url))
        var boxes: [(type: String, size: Int)] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            boxes.append((String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self), size))
            offset += size
        }
        #expect(offset == bytes.count, "\(url.lastPathComponent) does not end on a box")
        return zip(boxes, boxes.dropFirst()).filter { $0.0.type == "moof" && $0.1.type == "mdat" }.map { $0.0.size + $0.1.size }
    }

    /// The manifest `videos import` writes for `path`, and its sizes in bytes by level.
    static func imported(_ path: String, into folder: URL, extra: [String] = []) throws -> (manifest: URL, sizesByLevel: [[Int]]) {
        let manifest = folder.appendingPathComponent("video.json")
        let result = try CLI.run(["videos", "import", path, "--out", manifest.path] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as! [String: Any]
        let rows = json["segment_sizes_bits"] as! [[Int]]
        let levels = (json["bitrates_kbps"] as! [Double]).count
        return (manifest, (0..<levels).map { level in rows.map { $0[level] / 8 } })
    }

    @Test(arguments: Form.allCases)
    func everySegmentSizeIsTheBytesOnDisk(form: Form) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try form.sizesOnDisk()
        #expect(expected.allSatisfy { $0.count == 4 }, "the fixtures have four 1 s segments per level")
        let (manifest, sizes) = try Self.imported(form.path, into: folder)
        #expect(sizes == expected)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as! [String: Any]
        #expect(json["bitrates_kbps"] as? [Double] == [4, 8, 16])
        #expect(json["segment_duration_ms"] as? Double == 1000)
        let source = json["source"] as? [String: Any]
        #expect(source?["kind"] as? String == "dash-mpd")
        #expect(source?["path"] as? String == form.path)
        #expect(source?["levels"] as? [String] == ["0", "1", "2"])
        let addressing: String = switch form {
        case .template, .timeline: "SegmentTemplate"
        case .segmentList: "SegmentList"
        case .segmentBase: "SegmentBase"
        }
        #expect(source?["addressing"] as? [String] == Array(repeating: addressing, count: 3))
    }

    @Test(arguments: Form.allCases)
    func compareGivesTheSameSessionsForTheMPDAndItsImport(form: Form) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (manifest, _) = try Self.imported(form.path, into: folder)
        var sessions: [String] = []
        for (name, video) in [("mpd", form.path), ("json", manifest.path)] {
            let out = folder.appendingPathComponent(name)
            let result = try CLI.run([
                "compare", "--strategies", "conservative", "Strategies/bba.lua", "--traces", "Traces/default", "--video", video,
                "--out", out.path, "--quiet",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            sessions.append(try CLI.read(out.appendingPathComponent("sessions.csv")))
        }
        #expect(sessions[0].split(separator: "\n").count > 2)
        #expect(sessions[0] == sessions[1])
    }

    @Test func ignoredAudioIsOneWarningRecordedInRunJSON() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("results")
        let result = try CLI.run(["compare", "--strategies", "conservative", "--traces", "Traces/default/3g_1.csv", "--video", Form.template.path, "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let warning = "manifest.mpd:16: warning: only this video Adaptation Set is emulated; ignored: 1 audio Adaptation Set (line 30)"
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(lines.count == 1 && lines[0].hasSuffix(warning), "\(result.stderr)")
        let run = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as! [String: Any]
        #expect((run["warnings"] as? [String])?.contains { $0.hasSuffix(warning) } == true, "\(run["warnings"] ?? "none")")
        // Every ffmpeg MPD is manifest.mpd: the video is known by its folder.
        let video = (run["inputs"] as? [String: Any])?["video"] as? [String: Any]
        #expect(video?["name"] as? String == "template")
    }

    @Test func levelFoldersImportAsTheMPDDoes() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let encoded = folder.appendingPathComponent("encoded")
        let source = URL(fileURLWithPath: Form.template.path).deletingLastPathComponent()
        // Names that sort against the ladder, so the order must come from the bytes.
        for (level, name) in ["c-low", "b-mid", "a-high"].enumerated() {
            let levelFolder = encoded.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: levelFolder, withIntermediateDirectories: true)
            for file in try FileManager.default.contentsOfDirectory(atPath: source.path) where file.contains("stream\(level)") {
                try FileManager.default.copyItem(at: source.appendingPathComponent(file), to: levelFolder.appendingPathComponent(file))
            }
            // A playlist beside the segments, numbered too, is not a segment.
            try "#EXTM3U\n".write(to: levelFolder.appendingPathComponent("\(level)720p.m3u8"), atomically: true, encoding: .utf8)
        }
        let (_, fromMPD) = try Self.imported(Form.template.path, into: folder)
        // A folder holding one MPD imports as that MPD.
        #expect(try Self.imported(source.path, into: folder).sizesByLevel == fromMPD)
        let (manifest, fromFolders) = try Self.imported(encoded.path, into: folder, extra: ["--segment-duration-s", "1", "--ladder-kbps", "4,8,16"])
        #expect(fromFolders == fromMPD)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as! [String: Any]
        let recorded = json["source"] as? [String: Any]
        #expect(recorded?["levels"] as? [String] == ["c-low", "b-mid", "a-high"])
        #expect(recorded?["addressing"] as? [String] == ["chunk-stream0-#.m4s", "chunk-stream1-#.m4s", "chunk-stream2-#.m4s"])

        // A gap in the numbering is a missing segment, refused without output.
        try FileManager.default.removeItem(at: encoded.appendingPathComponent("b-mid/chunk-stream1-00003.m4s"))
        let out = folder.appendingPathComponent("gap.json")
        let result = try CLI.run(["videos", "import", encoded.path, "--segment-duration-s", "1", "--out", out.path])
        #expect(result.status == 1)
        #expect(result.stderr == "abrlab: \(encoded.path)/b-mid: segment 3 is missing (after chunk-stream1-00002.m4s); segments are numbered without gaps\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
