import ABRLab
import Foundation

/// Turns a folder of encoded output into a video with a record of its source, for
/// `abrlab videos import`: an MPD with its media, or one folder of segment files per level.
public enum VideoImporter {
    public struct Imported: Equatable, Sendable {
        public let video: Video
        public let source: VideoSource
        public let warnings: [InputWarning]
    }

    /// Reads `path`: an MPD file; a folder holding exactly one MPD; else a folder of level
    /// folders, which needs `segmentDurationSeconds` (and takes `ladderKbps`). An MPD states its
    /// own ladder and duration, so either setting with one is an error.
    public static func read(_ path: String, ladderKbps: [Double]? = nil, segmentDurationSeconds: Double? = nil) throws(InputError) -> Imported {
        let url = URL(fileURLWithPath: path)
        guard TextFile.exists(url) else { throw InputError(file: path, "no such file or folder") }
        var mpd: URL?
        if TextFile.isDirectory(url) {
            let manifests = try TextFile.contents(of: url).filter { VideoLoader.handlesMPD($0.lastPathComponent) && !TextFile.isDirectory($0) }
            guard manifests.count <= 1 else {
                throw InputError(file: path, "holds several MPDs (\(manifests.map(\.lastPathComponent).joined(separator: ", "))); import one of them by its path")
            }
            mpd = manifests.first.map { URL(fileURLWithPath: path.hasSuffix("/") ? path + $0.lastPathComponent : path + "/" + $0.lastPathComponent) }
        } else {
            guard VideoLoader.handlesMPD(path) else { throw InputError(file: path, "is neither a folder nor an MPD (.mpd)") }
            mpd = url
        }
        if let mpd {
            guard ladderKbps == nil, segmentDurationSeconds == nil else {
                throw InputError(
                    file: TextFile.displayName(mpd),
                    mentioning: "an MPD states its own ladder and segment duration; leave out \(Setting.ladderKbps) and \(Setting.segmentDurationS)"
                )
            }
            let loaded = try VideoLoader.loadMPD(mpd)
            let source = VideoSource(
                kind: .mpd, path: TextFile.displayName(mpd), addressing: loaded.addressing, levels: loaded.representationIDs
            )
            return Imported(video: loaded.video, source: source, warnings: loaded.warnings)
        }
        guard let segmentDurationSeconds else {
            throw InputError(
                file: path, mentioning: "holds level folders of segment files, which do not say how long a segment lasts; give \(Setting.segmentDurationS)"
            )
        }
        guard segmentDurationSeconds.isFinite, segmentDurationSeconds > 0, segmentDurationSeconds <= Video.maximumSegmentSeconds else {
            throw InputError(setting: .segmentDurationS, "must be a positive number of seconds, at most \(NumberText.plain(Video.maximumSegmentSeconds))")
        }
        let folders = try VideoLoader.loadSegmentFolders(url, segmentDurationSeconds: segmentDurationSeconds, ladderKbps: ladderKbps)
        let source = VideoSource(kind: .segmentFolders, path: path, addressing: folders.patterns, levels: folders.levels)
        return Imported(video: folders.video, source: source, warnings: [])
    }
}
