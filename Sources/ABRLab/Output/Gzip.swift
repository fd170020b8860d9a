import CZlib
import Foundation

/// gzip through the system zlib. Each call to ``member(_:)`` makes one complete gzip member
/// (RFC 1952) from one buffer, so the bytes depend only on the input: no timestamp, no file
/// name, a fixed level. Members concatenate into a valid gzip file, which is how chunked output
/// stays byte-identical whether it is written in one run, resumed, or merged from shards.
public enum Gzip {
    /// zlib's level 6, its default: a good ratio at a fraction of level 9's time.
    public static let level: Int32 = 6

    /// One gzip member holding `bytes`.
    public static func member(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16 asks for a gzip header and trailer; memLevel 8 is zlib's default.
        let status = deflateInit2_(
            &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)
        )
        precondition(status == Z_OK, "zlib cannot start a deflate stream (\(status))")
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        var input = bytes
        let produced = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                let result = deflate(&stream, Z_FINISH)
                precondition(result == Z_STREAM_END, "zlib could not finish a member within deflateBound (\(result))")
                return target.count - Int(stream.avail_out)
            }
        }
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
