import ABRLab
import ABRLabLua
import Foundation

/// A temporary folder of scripts, removed when the value goes away.
final class ScriptFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("abrlab-lua-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Writes and loads a script.
    func load(_ name: String, _ text: String, loader: LuaStrategyLoader = LuaStrategyLoader()) throws -> LuaScript {
        try loader.load(path: write(name, text))
    }
}

/// A small VBR video and contexts over it.
enum Fixture {
    static let levelsKbps = [300, 750, 1200, 1850, 2850, 4300]

    /// Six levels, ten 4-second segments; sizes vary by segment so size lookups are checkable:
    /// segment s (0-based) at level l is bitrate × 4 / 8 × 1000 + s bytes.
    static func video(segments: Int = 10) throws -> Video {
        let ladder = levelsKbps.map { BitrateLevel(bitrate: $0 * 1000, label: "\($0)k") }
        let sizes = (0..<segments).map { segment in levelsKbps.map { $0 * 500 + segment } }
        return try Video(name: "fixture", segmentDurationSeconds: 4, ladder: ladder, sizesBytes: sizes)
    }

    static func info(_ video: Video, seed: UInt64 = 1) -> SessionInfo {
        SessionInfo(video: video, segmentCount: video.segmentCount, traceName: "trace-a", profileName: "default", seed: seed, maxBufferSeconds: 60)
    }

    static func download(segment: Int, level: Int, throughputKbps: Double, video: Video) -> DownloadRecord {
        let size = video.sizeBytes(segment: segment, level: level)
        let time = Double(size) * 8 / throughputKbps / 1000
        return DownloadRecord(
            segmentIndex: segment, level: level, sizeBytes: size, downloadTimeSeconds: time, throughputKbps: throughputKbps,
            rebufferSeconds: 0, bufferSeconds: 4, waitSeconds: 0
        )
    }

    static func context(
        _ video: Video, segment: Int, downloads: [DownloadRecord], bufferSeconds: Double = 8,
        quality: NetworkQuality = .good, estimateKbps: Double = 2000
    ) -> DecisionContext {
        DecisionContext(
            segmentIndex: segment, segmentCount: video.segmentCount, segmentDurationSeconds: video.segmentDurationSeconds,
            ladder: video.ladder, lastLevel: downloads.last?.level, bufferSeconds: bufferSeconds, rebufferSeconds: 0,
            stallCount: 0, elapsedSeconds: Double(segment) * 4, estimateKbps: estimateKbps, networkQuality: quality,
            downloads: downloads, video: video
        )
    }

    /// Plays `segments` decisions at a constant throughput and returns the 0-based levels.
    static func play(
        _ strategy: inout some SessionStrategy, video: Video, seed: UInt64 = 1, segments: Int? = nil, throughputKbps: Double = 2000
    ) throws -> [Int] {
        try strategy.setUp(info(video, seed: seed))
        var downloads: [DownloadRecord] = []
        var levels: [Int] = []
        for segment in 0..<(segments ?? video.segmentCount) {
            let context = context(video, segment: segment, downloads: downloads)
            let level = try strategy.chooseLevel(context)
            levels.append(level)
            let record = download(segment: segment, level: level, throughputKbps: throughputKbps, video: video)
            try strategy.didDownload(record, context: context)
            downloads.append(record)
        }
        return levels
    }

    /// Plays a whole session with a fresh strategy of `script`.
    static func play(_ script: LuaScript, seed: UInt64 = 1, segments: Int? = nil) throws -> [Int] {
        var strategy = script.makeStrategy()
        return try play(&strategy, video: video(), seed: seed, segments: segments)
    }

    /// The error `body` throws, as its one-line description.
    static func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return String(describing: error)
        }
    }
}
