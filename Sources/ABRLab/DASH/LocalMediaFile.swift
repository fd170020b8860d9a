import Foundation

/// A media file on local disk that segment sizes are read from: its size, and bytes read at an
/// offset without reading the whole file (a single-file Representation can be gigabytes).
struct LocalMediaFile {
    let url: URL
    /// The file as messages name it.
    let name: String
    let sizeBytes: Int

    /// The regular file at `url`; an `InputError` naming it when it is missing or not a file.
    init(_ url: URL, name: String) throws(InputError) {
        self.url = url
        self.name = name
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw InputError(file: name, "no such file")
        }
        guard !isDirectory.boolValue else { throw InputError(file: name, "is a folder, not a media file") }
        // A link stands for its target, as media folders often link to shared files.
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path),
              (attributes[.type] as? FileAttributeType) == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue else {
            throw InputError(file: name, "is not a regular file")
        }
        sizeBytes = size
    }

    /// `count` bytes from `offset`, fewer at the end of the file.
    func read(offset: Int, count: Int) throws(InputError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= sizeBytes else { return [] }
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(offset))
            return [UInt8](try handle.read(upToCount: min(count, sizeBytes - offset)) ?? Data())
        } catch {
            throw InputError(file: name, "cannot read the file (\((error as NSError).localizedDescription))")
        }
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
