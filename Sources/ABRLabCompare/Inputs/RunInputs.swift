import ABRLab
import ABRLabFormats
import Foundation
#if canImport(Glibc)
import Glibc
import ABRLabDatasets
#endif

/// The inputs of a run as `run.json` records them: every file read, by path and content hash,
/// so a result can be traced to the exact video, traces and scripts that made it.
public struct RunInputs: Encodable {
    /// One file: where it was read and what it contained.
    public struct File: Encodable, Sendable {
        /// Absolute, so the record does not depend on where the run was started.
        let path: String
        let bytes: Int
        let sha256: String

        /// `nil` when the file cannot be read (it was read a moment ago, so only a race does that).
        init?(path: String) {
            self.init(standardizedPath: Self.absolute(path))
        }

        /// A file a script loaded, with the hash of the bytes it used.
        init(loaded file: LoadedFile) {
            path = Self.absolute(file.path)
            bytes = file.byteCount
            sha256 = file.sha256
        }

        /// `path` absolute and standardized, as records name files.
        static func absolute(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.path
        }

        /// A file whose path is already absolute and standardized; opened by `rawSpelled`, the
        /// bytes of its name as given, when the path is text that escapes some (a name not in UTF-8).
        init?(standardizedPath path: String, rawSpelled: [UInt8]? = nil) {
            let opened = rawSpelled ?? Array(path.utf8)
            let contents = (opened + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { Self.contents($0.baseAddress!) }
            }
            guard let data = contents else { return nil }
            self.path = path
            bytes = data.count
            sha256 = SHA256.hex(data)
        }

        /// The file's bytes through open/fstat/read, with no Foundation objects per file: every
        /// shard reads every trace of the plan. `nil` for anything but a readable regular file.
        private static func contents(_ path: UnsafePointer<CChar>) -> [UInt8]? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
            // One byte of room past the size fstat gives, so the read that finds the end needs no
            // new storage and a file that grew meanwhile is still read whole.
            var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
            var filled = 0
            while true {
                if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count))) }
                let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { return nil }
                if count == 0 { break }
                filled += count
            }
            bytes.removeSubrange(filled...)
            return bytes
        }
    }

    public struct Video: Encodable {
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

        enum CodingKeys: String, CodingKey {
            case spec, name, bitratesKbps = "bitrates_kbps", segmentDurationSeconds = "segment_duration_s", segmentCount = "segment_count"
            case sizesSHA256 = "sizes_sha256", files
        }

        /// The record of `video`, given as `spec`; its files are read and hashed now.
        init(spec: String, video: ABRLab.Video) {
            self.spec = spec
            name = video.name
            bitratesKbps = video.bitratesKbps
            segmentDurationSeconds = video.segmentDurationSeconds
            segmentCount = video.segmentCount
            sizesSHA256 = RunInputs.sizesHash(video)
            files = RunInputs.videoFiles(spec).compactMap { File(path: $0) }
        }
    }

    public struct Trace {
        let name: String
        let file: File?

        /// As the synthesized `Encodable` conformance would write it: no `file` when unreadable.
        /// Members come in sorted order, which spares the renderer a sort.
        var json: PrettyJSON.Value {
            guard let file else { return .object([("name", .string(name))]) }
            let record: PrettyJSON.Value = .object([("bytes", .integer(file.bytes)), ("path", .string(file.path)), ("sha256", .string(file.sha256))])
            return .object([("file", record), ("name", .string(name))])
        }
    }

    public let video: Video
    public let traces: [Trace]

    public enum CodingKeys: String, CodingKey { case video, traces }

    /// The trace list goes through ``PrettyJSON/Verbatim``: it is most of `run.json`, which
    /// every shard writes (see ``RunManifest/json()``).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(video, forKey: .video)
        try container.encode(PrettyJSON.Verbatim(.array(traces.map(\.json))), forKey: .traces)
    }

    /// Traces already read (``PendingRunInputs``).
    public init(video: Video, traces: [Trace]) {
        self.video = video
        self.traces = traces
    }

    /// `File(standardizedPath:rawSpelled:)` of each path, in order, read on up to `jobs` threads.
    public static func read(_ paths: [(path: String, rawSpelled: [UInt8]?)], jobs: Int) -> [File?] {
        Parallel.map(paths.count, threads: jobs) { File(standardizedPath: paths[$0].path, rawSpelled: paths[$0].rawSpelled) }
    }

    /// The files behind a video spec: the manifest, a Pensieve folder's `video_size_N` files, or
    /// an HLS master playlist and its media playlists.
    public static func videoFiles(_ spec: String) -> [String] {
        var isDirectory: ObjCBool = false
        let spec = (try? DatasetInput.path(spec)) ?? spec
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

    public static func sizesHash(_ video: ABRLab.Video) -> String {
        var text = "\(video.segmentDurationSeconds)|" + video.ladder.map { String($0.bitrate) }.joined(separator: ",") + "\n"
        for segment in 0..<video.segmentCount {
            text += (0..<video.levelCount).map { String(video.sizeBytes(segment: segment, level: $0)) }.joined(separator: ",") + "\n"
        }
        return SHA256.hex(Array(text.utf8))
    }
}
