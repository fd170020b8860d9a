import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads an input file (trace, manifest, playlist, script) whole, up to `maximumBytes`.
///
/// Every input is parsed in memory, so an input that is too large is refused before it is read:
/// a regular file by its size, anything else (a pipe, a device) once more than the limit has
/// arrived. Memory stays bounded whatever the file, and a 2 GB sparse file fails at once instead
/// of being read.
public enum InputFile {
    /// 64 MiB: about 100 times the largest public trace (Sabre's 3G logs, 0.6 MB), room for a
    /// Mahimahi trace of an hour at 100 Mbit/s (about 60 MB), and a bound on the memory a
    /// parse can take.
    public static let maximumBytes = 64 << 20

    /// The file's bytes; an `InputError` naming the file when it is missing, unreadable, a
    /// folder or larger than `limit` bytes.
    public static func read(_ url: URL, limit: Int = maximumBytes) throws(InputError) -> Data {
        let file = TextFile.displayName(url)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw InputError(file: file, "no such file")
        }
        guard !isDirectory.boolValue else { throw InputError(file: file, "is a folder, not a file") }
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw InputError(file: file, "cannot read the file (\((error as NSError).localizedDescription))")
        }
        defer { try? handle.close() }
        var status = stat()
        if fstat(handle.fileDescriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int64(status.st_size) > Int64(limit) {
            throw tooLarge(file, limit: limit, size: Int64(status.st_size))
        }
        var data = Data()
        while true {
            let chunk: Data?
            // Never more than one byte past the limit, whatever the file streams.
            do { chunk = try handle.read(upToCount: min(1 << 20, limit + 1 - data.count)) } catch {
                throw InputError(file: file, "cannot read the file (\((error as NSError).localizedDescription))")
            }
            guard let chunk, !chunk.isEmpty else { break }
            data.append(chunk)
            if data.count > limit { throw tooLarge(file, limit: limit, size: nil) }
        }
        return data
    }

    /// The bytes of the file at `pathBytes`, a path that need not be UTF-8 (a file name no
    /// `String` path reaches), named `file` in errors; only a regular file is read, up to `limit`.
    public static func read(pathBytes: [UInt8], file: String, limit: Int = maximumBytes) throws(InputError) -> Data {
        let descriptor = (pathBytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        }
        guard descriptor >= 0 else { throw InputError(file: file, "cannot read the file (\(String(cString: strerror(errno))))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw InputError(file: file, "is not a regular file")
        }
        guard Int64(status.st_size) <= Int64(limit) else { throw tooLarge(file, limit: limit, size: Int64(status.st_size)) }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw InputError(file: file, "cannot read the file (\(String(cString: strerror(errno))))") }
            if count == 0 { break }
            data.append(contentsOf: chunk[..<count])
            if data.count > limit { throw tooLarge(file, limit: limit, size: nil) }
        }
        return data
    }

    /// `64 MiB`, `1.5 GiB`: a size for messages.
    public static func sizeText(_ bytes: Int64) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : "\(NumberText.plain((value * 10).rounded() / 10)) \(units[unit])"
    }

    private static func tooLarge(_ file: String, limit: Int, size: Int64?) -> InputError {
        let found = size.map { "is \(sizeText($0))" } ?? "holds more than that"
        return InputError(file: file, "is too large: inputs are read whole and limited to \(sizeText(Int64(limit))); this file \(found)")
    }
}
