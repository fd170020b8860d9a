import ABRLab
import CDeflate
import CRowsDeflate
import CZlib
import Foundation

/// gzip: members written by abrlab's rows encoder (`CRowsDeflate`), read back and checksummed
/// with the system zlib. Each call to ``member(_:)`` makes one complete gzip member (RFC 1952)
/// from one buffer, so the bytes depend only on the input: no timestamp, no file name. Members
/// concatenate into a valid gzip file, which is how block-compressed output stays
/// byte-identical whether it is written in one run, resumed, or merged from shards.
public enum Gzip {
    /// The encoder looks for repeats only where a CSV cell begins. Measured with `abrlab-bench
    /// --only output` (eight strategies over 300 FCC traces, rows cut per trace into the 64 KiB
    /// blocks a run makes, docs/output.md): 70.8 bytes a row at 481 MB/s on one core, where
    /// libdeflate's level 2, which abrlab wrote before (16 KiB blocks), made 73.5 at 187 MB/s and
    /// its level 1 77.2 at 240 MB/s.
    public static let identity = "gzip abrlab rows deflate 1 (matches at separators, 2 candidates, at least 6 bytes)"

    /// One gzip member holding `bytes`.
    public static func member(_ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: header.count + abrl_rows_deflate_bound(bytes.count) + 8)
        let produced = bytes.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                abrl_rows_deflate(source.baseAddress, source.count, target.baseAddress! + header.count, target.count - header.count - 8)
            }
        }
        precondition(produced > 0, "the rows encoder could not compress within its own bound")
        output.replaceSubrange(0..<header.count, with: header)
        let end = header.count + produced
        output.removeSubrange((end + 8)...)
        let crc = crc32(bytes)
        let size = UInt32(truncatingIfNeeded: bytes.count)
        for index in 0..<4 {
            output[end + index] = UInt8(truncatingIfNeeded: crc >> (8 * index))
            output[end + 4 + index] = UInt8(truncatingIfNeeded: size >> (8 * index))
        }
        return output
    }

    /// A gzip header without a time stamp, name or comment (RFC 1952 2.3), operating system
    /// "unknown": the same on every machine.
    private static let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]

    /// One gzip member from libdeflate at `level`, the yardstick `abrlab-bench` measures the
    /// rows encoder against.
    public static func libdeflateMember(_ bytes: [UInt8], level: Int32) -> [UInt8] {
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

    /// CRC-32 (the gzip and zip checksum) of `bytes`, continuing from `crc`: libdeflate's, which
    /// folds with carry-less multiplication, several times zlib's speed over every byte a run
    /// writes.
    public static func crc32<Bytes: ContiguousBytes>(_ bytes: Bytes, continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return crc }
            return libdeflate_crc32(crc, base, raw.count)
        }
    }
}
