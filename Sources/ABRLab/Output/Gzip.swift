import CDeflate
import CZlib
import Foundation

/// gzip: members written by libdeflate, read back and checksummed with the system zlib. Each
/// call to ``member(_:)`` makes one complete gzip member (RFC 1952) from one buffer, so the
/// bytes depend only on the input: no timestamp, no file name, a fixed level. Members
/// concatenate into a valid gzip file, which is how block-compressed output stays
/// byte-identical whether it is written in one run, resumed, or merged from shards.
public enum Gzip {
    /// libdeflate's level 2: the fastest that keeps a segment row under the 76 bytes zlib's
    /// level 6 made of it. Measured with `abrlab-bench --only output` (eight strategies over 300
    /// FCC traces, rows in the 16 KiB blocks a run makes, docs/output.md): level 1 makes 77.2
    /// bytes a row at 234 MB/s, level 2 73.5 at 181 MB/s, 3 and 4 save under a byte more at 3–5 %
    /// more time, 5 and 6 three bytes at 18–28 % more.
    public static let level: Int32 = 2

    /// What decides the bytes of a member, for a run's fingerprint.
    public static let identity = "gzip libdeflate \(LIBDEFLATE_VERSION_STRING) level \(level)"

    /// One gzip member holding `bytes`; another level only to measure (`abrlab-bench`).
    public static func member(_ bytes: [UInt8], level: Int32 = level) -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(level) else { preconditionFailure("libdeflate cannot allocate a compressor") }
        defer { libdeflate_free_compressor(compressor) }
        var output = [UInt8](repeating: 0, count: libdeflate_gzip_compress_bound(compressor, bytes.count))
        let produced = bytes.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                libdeflate_gzip_compress(compressor, source.baseAddress, source.count, target.baseAddress, target.count)
            }
        }
        precondition(produced > 0, "libdeflate could not compress within its own bound")
        output.removeSubrange(produced...)
        return output
    }

    /// The whole decompressed content of a gzip file of one or more members; `nil` when the
    /// bytes are not valid gzip.
    public static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        var result: [UInt8] = []
        var offset = 0
        var input = bytes
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while offset < input.count {
            var stream = z_stream()
            guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
            defer { inflateEnd(&stream) }
            var status = Z_OK
            input.withUnsafeMutableBufferPointer { source in
                stream.next_in = source.baseAddress! + offset
                stream.avail_in = uInt(source.count - offset)
                repeat {
                    chunk.withUnsafeMutableBufferPointer { target in
                        stream.next_out = target.baseAddress
                        stream.avail_out = uInt(target.count)
                        status = inflate(&stream, Z_NO_FLUSH)
                        result.append(contentsOf: target[0..<(target.count - Int(stream.avail_out))])
                    }
                } while status == Z_OK
                offset = source.count - Int(stream.avail_in)
            }
            guard status == Z_STREAM_END else { return nil }
        }
        return result
    }

    /// CRC-32 (the gzip and zip checksum) of `bytes`, continuing from `crc`.
    public static func crc32<Bytes: ContiguousBytes>(_ bytes: Bytes, continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return crc }
            return UInt32(CZlib.crc32(uLong(crc), base.assumingMemoryBound(to: Bytef.self), uInt(raw.count)))
        }
    }
}
