#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One output file of a resumable run: appended chunk by chunk, each chunk plain or one gzip
/// member, with its length and running CRC-32 known at all times so a journal can record
/// exactly which bytes are durable. A chunk may be written in parts, ended by ``endChunk()``;
/// checkpoints fall between chunks.
final class JournaledFile {
    let name: String
    let url: URL
    let compressed: Bool
    private(set) var length: UInt64 = 0
    private(set) var crc: UInt32 = 0
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The gzip member of the chunk being written, in a compressed file.
    private var member: Gzip.Member?

    /// Creates (or empties) the file and writes `header` as its first chunk.
    init(creating url: URL, name: String, compressed: Bool, header: String) throws(InputError) {
        self.url = url
        self.name = name
        self.compressed = compressed
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw InputError(file: url.path, "cannot create the file") }
        try append(Array(header.utf8))
    }

    /// Reopens a file a journal recorded at `length` bytes with checksum `crc`: checks those
    /// bytes and cuts off anything written after them.
    init(resuming url: URL, name: String, compressed: Bool, length: UInt64, crc: UInt32) throws(InputError) {
        self.url = url
        self.name = name
        self.compressed = compressed
        guard let found = Self.checksum(of: url, prefix: length), found == crc else {
            throw InputError(file: url.path, "the interrupted run's data does not match its journal; remove \(url.deletingLastPathComponent().path) to start over")
        }
        descriptor = open(url.path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0, ftruncate(descriptor, off_t(length)) == 0, lseek(descriptor, off_t(length), SEEK_SET) >= 0 else {
            throw InputError(file: url.path, "cannot reopen the file")
        }
        self.length = length
        self.crc = crc
    }

    deinit { close(descriptor) }

    /// Appends one chunk: the bytes as they are, or as one gzip member.
    func append(_ chunk: [UInt8]) throws(InputError) {
        try append(part: chunk)
        try endChunk()
    }

    /// Appends part of the current chunk: as it is, or into the chunk's gzip member.
    func append(part: [UInt8]) throws(InputError) {
        guard compressed else { return try store(part) }
        let member = self.member ?? Gzip.Member()
        self.member = member
        try store(member.compress(part))
    }

    /// Ends the current chunk; a compressed file's member is finished (an empty chunk makes one too).
    func endChunk() throws(InputError) {
        guard compressed else { return }
        let member = self.member ?? Gzip.Member()
        self.member = nil
        try store(member.finish())
    }

    private func store(_ bytes: [UInt8]) throws(InputError) {
        crc = Gzip.crc32(bytes, continuing: crc)
        length += UInt64(bytes.count)
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is buffered and forces it to the disk.
    func sync() throws(InputError) {
        try flush()
        guard fsync(descriptor) == 0 else { throw InputError(file: url.path, "cannot sync the file: \(String(cString: strerror(errno)))") }
    }

    private func flush() throws(InputError) {
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw InputError(file: url.path, "cannot write the file: \(String(cString: strerror(errno)))") }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// The CRC-32 of the first `prefix` bytes of a file, or `nil` when it is shorter or unreadable.
    static func checksum(of url: URL, prefix: UInt64) -> UInt32? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        var crc: UInt32 = 0
        var remaining = prefix
        while remaining > 0 {
            guard let data = try? handle.read(upToCount: Int(min(remaining, 1 << 20))), !data.isEmpty else { return nil }
            crc = Gzip.crc32(data, continuing: crc)
            remaining -= UInt64(data.count)
        }
        return crc
    }
}
