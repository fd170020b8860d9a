import ABRLab
import Foundation

extension VideoLoader {
    /// Prefix of Pensieve's per-level size files: `video_size_0` is the lowest level.
    static let pensieveSizeFilePrefix = "video_size_"

    /// Reads a folder of Pensieve `video_size_N` files: one file per level, N = 0, 1, …, each with
    /// one size in bytes per line, segment by segment. Other files in the folder are ignored.
    ///
    /// The files carry neither ladder nor segment duration. Without `ladderKbps`, a folder of six
    /// levels gets Pensieve's ladder (its only published video); any other count needs a ladder.
    /// Without `segmentDurationSeconds`, segments last Pensieve's 4 s. Every file must list the
    /// same number of segments.
    public static func loadPensieveSizes(
        _ folder: URL, ladderKbps: [Double]? = nil, segmentDurationSeconds: Double? = nil
    ) throws(InputError) -> Video {
        let folderName = TextFile.displayName(folder)
        let files = try pensieveSizeFiles(in: folder)
        let ladder: [BitrateLevel]
        if let ladderKbps {
            ladder = try self.ladder(kbps: ladderKbps, file: folderName)
        } else if files.count == VideoPreset.pensieveLadder.count {
            ladder = VideoPreset.pensieveLadder
        } else {
            throw InputError(
                file: folderName,
                "has \(files.count) video_size files; give a ladder of \(files.count) bitrates "
                    + "(only a folder of \(VideoPreset.pensieveLadder.count) gets Pensieve's ladder by default)"
            )
        }
        guard ladder.count == files.count else {
            throw InputError(file: folderName, "has \(files.count) video_size files but the ladder has \(ladder.count) bitrates")
        }
        var sizesByLevel: [[Int]] = []
        for url in files {
            let sizes = try pensieveSizes(url)
            if let first = sizesByLevel.first, sizes.count != first.count {
                throw InputError(
                    file: TextFile.displayName(url),
                    "lists \(sizes.count) segments but \(files[0].lastPathComponent) lists \(first.count)"
                )
            }
            sizesByLevel.append(sizes)
        }
        let sizesBytes = (0..<sizesByLevel[0].count).map { segment in sizesByLevel.map { $0[segment] } }
        return try makeVideo(
            file: folderName, name: folder.lastPathComponent,
            segmentDurationSeconds: segmentDurationSeconds ?? VideoPreset.pensieveSegmentDurationSeconds,
            ladder: ladder, sizesBytes: sizesBytes
        )
    }

    /// The folder's `video_size_N` files in level order; N must run 0, 1, … without gaps.
    private static func pensieveSizeFiles(in folder: URL) throws(InputError) -> [URL] {
        var filesByLevel: [Int: URL] = [:]
        for url in try TextFile.contents(of: folder) {
            let name = url.lastPathComponent
            guard name.hasPrefix(pensieveSizeFilePrefix), let level = Int(name.dropFirst(pensieveSizeFilePrefix.count)),
                  level >= 0 else { continue }
            filesByLevel[level] = url
        }
        guard !filesByLevel.isEmpty else {
            throw InputError(file: TextFile.displayName(folder), "has no \(pensieveSizeFilePrefix)N files; a video is \(specHelp)")
        }
        return try (0..<filesByLevel.count).map { level throws(InputError) in
            guard let url = filesByLevel[level] else {
                let found = filesByLevel.keys.sorted().map(String.init).joined(separator: ", ")
                throw InputError(
                    file: TextFile.displayName(folder), "\(pensieveSizeFilePrefix)\(level) is missing (found levels \(found))"
                )
            }
            return url
        }
    }

    /// One level's sizes in bytes, one whole number > 0 per non-blank line.
    private static func pensieveSizes(_ url: URL) throws(InputError) -> [Int] {
        let file = TextFile.displayName(url)
        let reader = FieldReader(file: file)
        var sizes: [Int] = []
        for line in TextLines(try TextFile.read(url)) where !line.isBlank {
            let fields = line.whitespaceFields
            guard fields.count == 1 else {
                throw InputError(file: file, line: line.number, "expected 1 field (a size in bytes), found \(fields.count)")
            }
            let size = try reader.count(fields[0], line: line.number, name: "size")
            guard size > 0 else { throw InputError(file: file, line: line.number, "size is 0 bytes; it must be > 0") }
            sizes.append(size)
        }
        guard !sizes.isEmpty else { throw InputError(file: file, "the file lists no sizes") }
        return sizes
    }
}
