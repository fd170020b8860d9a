import ABRLab
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A media file on local disk that segment sizes are read from: its size, and bytes read at an
/// offset without reading the whole file (a single-file Representation can be gigabytes).
struct LocalMediaFile {
    let url: URL
    /// The file as messages name it.
    let name: String
    let sizeBytes: Int

    /// The regular file at `url` (a link stands for its target, as media folders often link to
    /// shared files); an `InputError` naming it when it is missing, a folder, or a FIFO or
    /// device, which is refused without waiting for a writer.
    init(_ url: URL, name: String) throws(InputError) {
        self.url = url
        self.name = name
        let (descriptor, size) = try InputFile.openRegular(pathBytes: Array(url.path.utf8), file: name)
        close(descriptor)
        sizeBytes = Int(size)
    }

    /// `count` bytes from `offset`, fewer at the end of the file.
    func read(offset: Int, count: Int) throws(InputError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= sizeBytes else { return [] }
        // Opened again as at first: the file may have been swapped for a FIFO since.
        let (descriptor, _) = try InputFile.openRegular(pathBytes: Array(url.path.utf8), file: name)
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: min(count, sizeBytes - offset))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(offset + filled)) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw InputError(file: name, "cannot read the file (\(String(cString: strerror(errno))))") }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }

    /// One top-level box: its type, where it starts and its size.
    struct Box: Equatable {
        let type: String
        let offsetBytes: Int
        let sizeBytes: Int
    }

    /// The top-level boxes from `offset` to the end of the file, read header by header; nil
    /// when a header is cut short or a box runs past the end.
    func boxes(from offset: Int) throws(InputError) -> [Box]? {
        var boxes: [Box] = []
        var position = offset
        while position < sizeBytes {
            var reader = ISOByteReader(try read(offset: position, count: 16))
            let available = UInt64(sizeBytes - position)
            guard let header = ISOBoxHeader.read(&reader, available: available) else { return nil }
            let size = header.sizeBytes.map(Int.init) ?? (sizeBytes - position)
            boxes.append(Box(type: header.type, offsetBytes: position, sizeBytes: size))
            position += size
        }
        return boxes
    }
}
