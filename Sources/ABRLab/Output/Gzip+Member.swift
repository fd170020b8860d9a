import CZlib

extension Gzip {
    /// One gzip member written in parts: the bytes ``Gzip/member(_:)`` makes of the parts joined,
    /// without holding them all. zlib's output does not depend on how its input is split when
    /// nothing is flushed, so a chunk of output (all sessions of one trace) can be compressed
    /// as its sessions arrive, in memory that does not grow with the number of sessions.
    public final class Member {
        /// Allocated apart: zlib's state points back at its stream, which must not move.
        private let stream: UnsafeMutablePointer<z_stream>
        private var output = [UInt8](repeating: 0, count: 1 << 16)

        public init() {
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            let status = deflateInit2_(
                stream, Gzip.level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)
            )
            precondition(status == Z_OK, "zlib cannot start a deflate stream (\(status))")
        }

        deinit {
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }

        /// Compresses `bytes`; returns what zlib has made of the member so far (often nothing).
        public func compress(_ bytes: [UInt8]) -> [UInt8] {
            guard !bytes.isEmpty else { return [] }
            var input = bytes
            return input.withUnsafeMutableBufferPointer { source in
                stream.pointee.next_in = source.baseAddress
                stream.pointee.avail_in = uInt(source.count)
                return run(Z_NO_FLUSH)
            }
        }

        /// Ends the member: the last compressed bytes and the gzip trailer.
        public func finish() -> [UInt8] {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
            return run(Z_FINISH)
        }

        /// Deflates until zlib has taken every input byte (or, finishing, written the trailer).
        private func run(_ flush: Int32) -> [UInt8] {
            var produced: [UInt8] = []
            while true {
                let (status, count) = output.withUnsafeMutableBufferPointer { target in
                    stream.pointee.next_out = target.baseAddress
                    stream.pointee.avail_out = uInt(target.count)
                    let status = deflate(stream, flush)
                    return (status, target.count - Int(stream.pointee.avail_out))
                }
                produced += output[0..<count]
                // Z_BUF_ERROR only says no progress was possible: every input byte is taken.
                precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "zlib failed while deflating (\(status))")
                if flush == Z_FINISH ? status == Z_STREAM_END : stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { break }
            }
            stream.pointee.next_in = nil
            return produced
        }
    }
}
