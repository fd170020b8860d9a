import ABRLab
import ABRLabFormats
import Foundation

extension FuzzTarget {
    /// DASH: whole MPDs loaded against a folder of small media, and `sidx` boxes on their own.
    static let dashTargets: [FuzzTarget] = [
        FuzzTarget(name: "dash-mpd", dictionary: "mpd.dict") { bytes in
            let folder = mediaFolder
            let url = folder.appendingPathComponent("manifest.mpd")
            _ = FileManager.default.createFile(atPath: url.path, contents: Data(bytes))
            do throws(InputError) {
                let loaded = try VideoLoader.loadMPD(url)
                FuzzCheck.video(loaded.video)
                FuzzCheck.expect(loaded.addressing.count == loaded.video.levelCount, "one addressing per level")
                for warning in loaded.warnings {
                    FuzzCheck.expect(!warning.description.contains(where: \.isNewline), "warning spans several lines: \(warning)")
                }
            } catch {
                FuzzCheck.rejection(error, file: url.relativePath)
            }
        },
        FuzzTarget(name: "dash-sidx") { bytes in
            switch SegmentIndexBox.parse(bytes) {
            case .success(let index):
                FuzzCheck.expect(index.boxSizeBytes <= bytes.count && index.boxSizeBytes >= 32, "box size \(index.boxSizeBytes) of \(bytes.count) bytes")
                FuzzCheck.expect(index.timescale > 0, "timescale 0 parsed")
                FuzzCheck.expect(index.references.allSatisfy { $0.sizeBytes >= 0 && $0.durationTicks >= 0 }, "negative reference")
            case .failure(let failure):
                FuzzCheck.expect(!failure.message.contains(where: \.isNewline), "message spans several lines")
            }
        },
    ]

    /// Media the seeds name: four segment files `seg-1.m4s`…`seg-4.m4s` (and `$Time$` names
    /// `seg-t0.m4s`…), and `single.mp4`, a sidx indexing four fragments of 100 bytes.
    private static let mediaFolder: URL = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("abrlab-fuzz-dash-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: FuzzTarget.mediaFolder) }
        for number in 1...4 {
            let segment = Data(repeating: UInt8(number), count: 100 * number)
            _ = FileManager.default.createFile(atPath: url.appendingPathComponent("seg-\(number).m4s").path, contents: segment)
            _ = FileManager.default.createFile(atPath: url.appendingPathComponent("seg-t\((number - 1) * 1000).m4s").path, contents: segment)
        }
        _ = FileManager.default.createFile(atPath: url.appendingPathComponent("single.mp4").path, contents: Data(singleFile))
        return url
    }()

    /// `ftyp`, then a version-0 `sidx` (timescale 1000) of four 1 s references of 100 bytes, then
    /// four `moof`+`mdat` fragments of 100 bytes.
    private static let singleFile: [UInt8] = {
        func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }
        var bytes = u32(16) + Array("ftypiso6".utf8) + u32(0)
        bytes += u32(32 + 4 * 12) + Array("sidx".utf8) + u32(0) + u32(1) + u32(1000) + u32(0) + u32(0) + [0, 0, 0, 4]
        for _ in 0..<4 { bytes += u32(100) + u32(1000) + u32(0x9000_0000) }
        for _ in 0..<4 { bytes += u32(8) + Array("moof".utf8) + u32(92) + Array("mdat".utf8) + [UInt8](repeating: 0, count: 84) }
        return bytes
    }()
}
