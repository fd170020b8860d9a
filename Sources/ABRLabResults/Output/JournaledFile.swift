#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ABRLab

/// One output file of a resumable run: appended batch by batch, with its length and running
/// CRC-32 known at all times so a journal can record exactly which bytes are durable. A batch may
/// be written in parts, ended by ``endBatch()``; checkpoints fall between batches.
///
/// A compressed file cuts each batch's rows into blocks (see ``FileCompression``) that never span
/// two batches, so a resumed run or a shard cuts them where an uninterrupted run does. Blocks are
/// compressed through a ``CompressionQueue`` and stored in order as they come back; ``sync()``
/// waits for all of them, so a checkpoint vouches only for whole batches.
final class JournaledFile {
    enum Encoding {
        case plain
        case compressed(FileCompression, CompressionQueue)
    }

    /// Plain bytes of the blocks submitted and not yet stored, past which the writer takes the
    /// oldest (compressing it itself if no worker has started it): the memory a compressed file
    /// holds stays bounded whatever the run, and is counted in bytes, not blocks, since gzip's
    /// blocks are 64 times smaller than Zstandard's.
    static let maximumPendingBytes = 8 << 20

    let name: String
    let url: URL
    let encoding: Encoding
    private(set) var length: UInt64 = 0
    private(set) var crc: UInt32 = 0
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The plain rows of the block being filled, in a compressed file.
    private var block: [UInt8] = []
    /// Tickets of the blocks submitted and not yet stored, oldest first, with their plain sizes.
    private var pending: [(ticket: Int, bytes: Int)] = []
    private(set) var pendingBytes = 0

    /// Creates (or empties) the file and writes `header` as its first batch.
    init(creating url: URL, name: String, encoding: Encoding, header: String) throws(InputError) {
        self.url = url
        self.name = name
        self.encoding = encoding
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw InputError(file: url.path, "cannot create the file") }
        try append(Array(header.utf8))
    }

    /// Reopens a file a journal recorded at `length` bytes with checksum `crc`: checks those
    /// bytes and cuts off anything written after them.
    init(resuming url: URL, name: String, encoding: Encoding, length: UInt64, crc: UInt32) throws(InputError) {
        self.url = url
        self.name = name
        self.encoding = encoding
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

    /// Appends one batch: the bytes as they are, or as compressed blocks.
    func append(_ batch: [UInt8]) throws(InputError) {
        try append(part: batch)
        try endBatch()
    }

    /// Appends part of the current batch (whole lines): as it is, or into the batch's blocks.
    func append(part: [UInt8]) throws(InputError) {
        guard case .compressed(let compression, let queue) = encoding else { return try store(part) }
        var rest = part[...]
        while let end = compression.blockEnd(in: rest, filled: block.count) {
            block += rest[...end]
            rest = rest[(end + 1)...]
            try submitBlock(compression, queue)
        }
        block += rest
        try storeFinished(queue)
    }

    /// Ends the current batch; a compressed file's last block of the batch is submitted (a batch
    /// with no rows has none).
    func endBatch() throws(InputError) {
        guard case .compressed(let compression, let queue) = encoding else { return }
        if !block.isEmpty { try submitBlock(compression, queue) }
        try storeFinished(queue)
    }

    private func submitBlock(_ compression: FileCompression, _ queue: CompressionQueue) throws(InputError) {
        pending.append((queue.submit(block, as: compression), block.count))
        pendingBytes += block.count
        block = []
        while pendingBytes > Self.maximumPendingBytes { try storeOldest(queue) }
    }

    /// Stores the blocks that are compressed, up to the first that is not.
    private func storeFinished(_ queue: CompressionQueue) throws(InputError) {
        while let first = pending.first, queue.isDone(first.ticket) { try storeOldest(queue) }
    }

    /// Stores every submitted block, waiting for (or compressing) those not ready.
    func storePending() throws(InputError) {
        guard case .compressed(_, let queue) = encoding else { return }
        while !pending.isEmpty { try storeOldest(queue) }
    }

    private func storeOldest(_ queue: CompressionQueue) throws(InputError) {
        let oldest = pending.removeFirst()
        pendingBytes -= oldest.bytes
        try store(queue.take(oldest.ticket))
    }

    private func store(_ bytes: [UInt8]) throws(InputError) {
        crc = Gzip.crc32(bytes, continuing: crc)
        length += UInt64(bytes.count)
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Stores every block submitted, writes what is buffered and forces it to the disk.
    func sync() throws(InputError) {
        try storePending()
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
