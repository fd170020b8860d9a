import ABRLab
import Foundation

/// The inputs of a run as `run.json` records them: every file read, by path and content hash,
/// so a result can be traced to the exact video, traces and scripts that made it.
struct RunInputs: Encodable {
    /// One file: where it was read and what it contained.
    struct File: Encodable {
        /// Absolute, so the record does not depend on where the run was started.
        let path: String
        let bytes: Int
        let sha256: String

        /// `nil` when the file cannot be read (it was read a moment ago, so only a race does that).
        init?(path: String) {
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            self.path = URL(fileURLWithPath: path).standardizedFileURL.path
            bytes = data.count
            sha256 = SHA256.hex(data)
        }
    }

    struct Video: Encodable {
        /// The `--video` argument as given.
        let spec: String
        let name: String
        let bitratesKbps: [Double]
        let segmentDurationSeconds: Double
        let segmentCount: Int
        /// Hash of the ladder and every segment size, whatever files they came from: equal
        /// hashes mean the sessions saw the same video.
        let sizesSHA256: String
        /// The files the video was read from; none for presets and cbr: specs.
        let files: [File]
    }

    struct Trace: Encodable {
        let name: String
        let file: File?
    }

    let video: Video
    let traces: [Trace]

    init(videoSpec: String, video: ABRLab.Video, traceFiles: [(name: String, url: URL)]) {
        self.video = Video(
            spec: videoSpec, name: video.name, bitratesKbps: video.bitratesKbps,
            segmentDurationSeconds: video.segmentDurationSeconds, segmentCount: video.segmentCount,
            sizesSHA256: Self.sizesHash(video), files: Self.videoFiles(videoSpec).compactMap { File(path: $0) }
        )
        traces = traceFiles.map { Trace(name: $0.name, file: File(path: $0.url.path)) }
    }

    /// The files behind a video spec: the manifest, a Pensieve folder's `video_size_N` files, or
    /// an HLS master playlist and its media playlists.
    static func videoFiles(_ spec: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: spec, isDirectory: &isDirectory) else { return [] }
        let url = URL(fileURLWithPath: spec)
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: spec)) ?? []
            return names.filter { $0.hasPrefix("video_size_") }.sorted().map { url.appendingPathComponent($0).path }
        }
        guard HLSVideoLoader.handles(spec), let master = try? HLSMasterPlaylist.load(url) else { return [spec] }
        let base = url.deletingLastPathComponent()
        let playlists = master.variants.map(\.uri).filter { !$0.contains("://") }.map { uri in
            uri.hasPrefix("/") ? uri : base.appendingPathComponent(uri).path
        }
        return [spec] + Array(Set(playlists)).sorted()
    }

    static func sizesHash(_ video: ABRLab.Video) -> String {
        var text = "\(video.segmentDurationSeconds)|" + video.ladder.map { String($0.bitrate) }.joined(separator: ",") + "\n"
        for segment in 0..<video.segmentCount {
            text += (0..<video.levelCount).map { String(video.sizeBytes(segment: segment, level: $0)) }.joined(separator: ",") + "\n"
        }
        return SHA256.hex(Array(text.utf8))
    }
}
