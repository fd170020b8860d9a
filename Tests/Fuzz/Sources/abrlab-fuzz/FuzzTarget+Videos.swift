import ABRLab
import ABRLabFormats
import Foundation

extension FuzzTarget {
    /// Video loaders: Sabre manifests, Pensieve size folders and CBR specs.
    static let videoTargets: [FuzzTarget] = [
        FuzzTarget(name: "sabre-manifest", dictionary: "json.dict") { bytes in
            do throws(InputError) {
                FuzzCheck.video(try VideoLoader.parseSabreManifest(text(bytes), file: "movie.json", name: "movie"))
            } catch {
                FuzzCheck.rejection(error, file: "movie.json")
            }
        },
        FuzzTarget(name: "pensieve-sizes") { bytes in pensieveSizes(bytes) },
        FuzzTarget(name: "cbr-spec") { bytes in
            // A spec is one command-line argument, so it has no line breaks.
            let spec = "cbr:" + text(bytes)
            guard !spec.contains(where: \.isNewline) else { return }
            do throws(InputError) {
                FuzzCheck.video(try VideoLoader.cbr(spec))
            } catch {
                FuzzCheck.rejection(error, file: spec)
            }
        },
    ]

    /// Most `video_size_N` files a Pensieve input is split into.
    private static let maximumSizeFiles = 6

    /// A scratch folder per process, on tmpfs when there is one, removed when the process exits.
    private static let scratchFolder: URL = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("abrlab-fuzz-\(getpid())")
        atexit { try? FileManager.default.removeItem(at: FuzzTarget.scratchFolder) }
        return url
    }()

    /// The folder the size files are written to.
    private static let sizeFolder: URL = {
        let url = scratchFolder.appendingPathComponent("video")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// The input split at NUL bytes into the files `video_size_0`, `video_size_1`, … of a folder,
    /// loaded with a ladder of as many levels, so mismatched segment counts are reached too.
    private static func pensieveSizes(_ bytes: [UInt8]) {
        let parts = bytes.split(separator: 0, maxSplits: maximumSizeFiles - 1, omittingEmptySubsequences: false)
        let folder = sizeFolder
        for old in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(old))
        }
        for (level, part) in parts.enumerated() {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("video_size_\(level)").path, contents: Data(part))
        }
        let ladderKbps = parts.indices.map { Double(300 * ($0 + 1)) }
        do throws(InputError) {
            FuzzCheck.video(try VideoLoader.loadPensieveSizes(folder, ladderKbps: ladderKbps))
        } catch {
            FuzzCheck.rejection(error, file: folder.relativePath, orInside: true)
        }
    }
}
