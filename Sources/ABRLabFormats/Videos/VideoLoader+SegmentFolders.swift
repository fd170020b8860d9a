import ABRLab
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension VideoLoader {
    /// A ladder read from a folder holding one folder of segment files per level, as encoders
    /// leave them when each rendition is written apart.
    public struct SegmentFolders: Equatable, Sendable {
        public let video: Video
        /// The level folders' names, lowest level first.
        public let levels: [String]
        /// Each level's segment file names with the segment number as `#`: `seg-#.m4s`.
        public let patterns: [String]
    }

    /// Reads `folder`'s subfolders as levels. In each, the segment files are the files whose
    /// names hold a number before the extension, save initialization segments (names with
    /// `init`) and playlists, manifests and notes (`.m3u8`, `.mpd`, `.json`, `.txt` and the
    /// like); the last such number is the segment's, all names must differ only in it, and the numbers must run
    /// without a gap. Every level must have the same count.
    ///
    /// Levels go from the fewest bytes to the most. Their bitrates are `ladderKbps`, else each
    /// level's mean (bytes × 8 over its duration, rounded to the kbps).
    public static func loadSegmentFolders(
        _ folder: URL, segmentDurationSeconds: Double, ladderKbps: [Double]? = nil
    ) throws(InputError) -> SegmentFolders {
        let folderName = TextFile.displayName(folder)
        let subfolders = try TextFile.contents(of: folder).filter(TextFile.isDirectory)
        guard !subfolders.isEmpty else {
            throw InputError(file: folderName, "holds neither an MPD nor level folders of segment files")
        }
        var levels: [(name: String, pattern: String, sizes: [Int])] = []
        for subfolder in subfolders {
            let (pattern, sizes) = try segmentFiles(in: subfolder, display: folderName + "/" + subfolder.lastPathComponent)
            if let first = levels.first, sizes.count != first.sizes.count {
                throw InputError(
                    file: folderName + "/" + subfolder.lastPathComponent,
                    "has \(sizes.count) segments but \(first.name) has \(first.sizes.count); a ladder's levels have the same segments"
                )
            }
            levels.append((subfolder.lastPathComponent, pattern, sizes))
        }
        levels.sort { ($0.sizes.reduce(0, +), $0.name) < ($1.sizes.reduce(0, +), $1.name) }
        let kbps: [Double]
        if let ladderKbps {
            guard ladderKbps.count == levels.count else {
                throw InputError(file: folderName, "has \(levels.count) level folders but the ladder has \(ladderKbps.count) bitrates")
            }
            kbps = ladderKbps
        } else {
            kbps = levels.map { level in
                (Double(level.sizes.reduce(0, +)) * 8 / (Double(level.sizes.count) * segmentDurationSeconds) / 1000).rounded()
            }
        }
        let ladder = try self.ladder(kbps: kbps, file: folderName)
        let sizesBytes = (0..<levels[0].sizes.count).map { segment in levels.map { $0.sizes[segment] } }
        let video = try makeVideo(
            file: folderName, name: folder.lastPathComponent, segmentDurationSeconds: segmentDurationSeconds, ladder: ladder,
            sizesBytes: sizesBytes
        )
        return SegmentFolders(video: video, levels: levels.map(\.name), patterns: levels.map(\.pattern))
    }

    /// The name pattern and sizes, in segment order, of the segment files in one level folder.
    private static func segmentFiles(in folder: URL, display: String) throws(InputError) -> (String, [Int]) {
        var numbered: [(number: Int, size: Int, name: String)] = []
        var patterns: Set<String> = []
        for url in try TextFile.contents(of: folder) where !TextFile.isDirectory(url) {
            let name = url.lastPathComponent
            let lowered = name.lowercased()
            guard !lowered.contains("init"), !Self.manifestExtensions.contains(where: lowered.hasSuffix),
                  let (pattern, number) = numberedName(name) else { continue }
            // stat follows a link to its target and never waits, whatever the file is.
            var status = stat()
            guard stat(url.path, &status) == 0 else {
                throw InputError(file: display + "/" + name, "cannot read the file's size (\(String(cString: strerror(errno))))")
            }
            if let problem = InputFile.notRegular(status.st_mode) { throw InputError(file: display + "/" + name, problem) }
            let size = Int(status.st_size)
            guard size > 0 else { throw InputError(file: display + "/" + name, "is empty; a segment has bytes") }
            patterns.insert(pattern)
            numbered.append((number, size, name))
        }
        guard let pattern = patterns.first else { throw InputError(file: display, "holds no numbered segment files") }
        guard patterns.count == 1 else {
            throw InputError(file: display, "holds files of several name patterns (\(patterns.sorted().joined(separator: ", "))); keep one level's segments per folder")
        }
        numbered.sort { $0.number < $1.number }
        for (previous, next) in zip(numbered, numbered.dropFirst()) where next.number != previous.number + 1 {
            let what = next.number == previous.number ? "\(next.name) repeats segment \(next.number)" : "segment \(previous.number + 1) is missing"
            throw InputError(file: display, "\(what) (after \(previous.name)); segments are numbered without gaps")
        }
        return (pattern, numbered.map(\.size))
    }

    /// Files beside segments that are not segments: playlists, manifests and notes.
    private static let manifestExtensions = [".m3u8", ".m3u", ".mpd", ".json", ".txt", ".csv", ".xml", ".log"]

    /// The name with the last run of digits before its extension as `#`, and that number; nil
    /// without digits there.
    private static func numberedName(_ name: String) -> (String, Int)? {
        let characters = Array(name)
        let stemEnd = characters.lastIndex(of: ".").flatMap { $0 > 0 ? $0 : nil } ?? characters.count
        guard let end = characters[..<stemEnd].lastIndex(where: \.isASCIIDigit) else { return nil }
        var start = end
        while start > 0, characters[start - 1].isASCIIDigit { start -= 1 }
        guard end - start < 18, let number = Int(String(characters[start...end])) else { return nil }
        return (String(characters[..<start]) + "#" + String(characters[(end + 1)...]), number)
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
