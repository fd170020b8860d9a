import ABRLab
import CZstd

/// Zstandard through the system libzstd. Each call to ``frame(_:)`` makes one complete frame
/// (RFC 8878) with the content size and a checksum of the content, from one buffer, so the
/// bytes depend only on the input and the library. Frames concatenate into a valid file that
/// `zstd -d`, pandas and Python's `zstandard` read as one.
public enum Zstd {
    /// libzstd's level 1, its fastest regular level. Measured on the segment rows of eight
    /// strategies over 300 FCC traces in blocks of 1 MiB (docs/output.md): 50.7 bytes a row at
    /// 594 MB/s; level 2 saves 1.2 bytes at 33 % more time, 3 (the default) makes 51.8 at 78 %.
    public static let level: Int32 = 1

    /// What decides the bytes of a frame, for a run's fingerprint.
    public static var identity: String { "zstd libzstd \(String(cString: ZSTD_versionString())) level \(level)" }

    /// One frame holding `bytes`; another level only to measure (`abrlab-bench`).
    public static func frame(_ bytes: [UInt8], level: Int32 = level) -> [UInt8] {
        guard let context = ZSTD_createCCtx() else { preconditionFailure("libzstd cannot allocate a compression context") }
        defer { ZSTD_freeCCtx(context) }
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
        var output = [UInt8](repeating: 0, count: ZSTD_compressBound(bytes.count))
        let produced = bytes.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                ZSTD_compress2(context, target.baseAddress, target.count, source.baseAddress, source.count)
            }
        }
        precondition(ZSTD_isError(produced) == 0, "libzstd failed: \(String(cString: ZSTD_getErrorName(produced)))")
        output.removeSubrange(produced...)
        return output
    }

    /// The whole decompressed content of a file of one or more frames; `nil` when the bytes are
    /// not valid Zstandard (a checksum that does not match included).
    public static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        guard !bytes.isEmpty else { return [] }
        guard let context = ZSTD_createDStream() else { return nil }
        defer { ZSTD_freeDStream(context) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: ZSTD_DStreamOutSize())
        // 0 once a frame ends; anything else at the end of the input means a frame was cut short.
        var remaining = 0
        let complete = bytes.withUnsafeBytes { source -> Bool in
            var input = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: 0)
            while input.pos < input.size || remaining > 0 {
                let before = input.pos
                let (status, produced) = chunk.withUnsafeMutableBytes { target in
                    var output = ZSTD_outBuffer(dst: target.baseAddress, size: target.count, pos: 0)
                    let status = ZSTD_decompressStream(context, &output, &input)
                    return (status, output.pos)
                }
                guard ZSTD_isError(status) == 0 else { return false }
                result.append(contentsOf: chunk[0..<produced])
                remaining = status
                // Input used up with a frame unfinished and nothing more coming out.
                if input.pos == input.size, remaining > 0, produced == 0, before == input.pos { return false }
            }
            return true
        }
        return complete ? result : nil
    }
}
