import ABRLab
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Notes a run keeps beside its partial results, for the run that resumes it: what the caller
/// must check before continuing that the plan's identity cannot cover, such as the files code
/// loaded while the sessions ran.
extension ResumableResults {
    private static func partialFolder(in directory: URL) -> URL {
        directory.appendingPathComponent(partialFolderName)
    }

    /// The identity the interrupted run in `directory` was started with, if one is there.
    public static func interruptedIdentity(in directory: URL) -> String? {
        // `plan` is the file `start(identity:)` writes.
        try? String(contentsOf: partialFolder(in: directory).appendingPathComponent("plan"), encoding: .utf8)
    }

    /// The note `name` the interrupted run in `directory` left, if any.
    public static func note(_ name: String, in directory: URL) -> Data? {
        FileManager.default.contents(atPath: partialFolder(in: directory).appendingPathComponent(name).path)
    }

    /// Keeps `bytes` as this run's note `name`, replacing the last one whole. With `synced`, the
    /// note is on disk before this returns, so a checkpoint written after it never vouches for
    /// work the note misses.
    public func writeNote(_ name: String, _ bytes: [UInt8], synced: Bool) throws(InputError) {
        let folder = Self.partialFolder(in: directory)
        let final = folder.appendingPathComponent(name).path
        let temporary = folder.appendingPathComponent("." + name + ".tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw InputError(file: final, "cannot write the file: \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        let complete = written == bytes.count && (!synced || fsync(descriptor) == 0)
        let syncError = errno
        close(descriptor)
        guard complete else {
            unlink(temporary)
            throw InputError(file: final, "cannot write the file: \(String(cString: strerror(syncError)))")
        }
        guard rename(temporary, final) == 0 else {
            let renameError = errno
            unlink(temporary)
            throw InputError(file: final, "cannot write the file: \(String(cString: strerror(renameError)))")
        }
        // The rename itself lasts only once the folder is synced too.
        if synced {
            let folderDescriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            let folderSynced = folderDescriptor >= 0 && fsync(folderDescriptor) == 0
            let folderError = errno
            if folderDescriptor >= 0 { close(folderDescriptor) }
            guard folderSynced else { throw InputError(file: final, "cannot write the file: \(String(cString: strerror(folderError)))") }
        }
    }
}
