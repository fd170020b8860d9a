import Foundation

/// A file written under a temporary name and renamed into place only when committed, so an
/// interrupted run never leaves a half-written file under the real name.
public final class AtomicFile {
    public let url: URL
    private let temporaryURL: URL
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var committed = false

    public init(_ url: URL) throws(InputError) {
        self.url = url
        temporaryURL = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporaryURL.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: temporaryURL) else {
            throw InputError(file: url.path, "cannot create the file")
        }
        self.handle = handle
        buffer.reserveCapacity(1 << 20)
    }

    public func write(_ text: String) throws(InputError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    public func write(bytes: [UInt8]) throws(InputError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is buffered and moves the file to its real name.
    public func commit() throws(InputError) {
        try flush()
        do {
            try handle.close()
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            try FileManager.default.moveItem(at: temporaryURL, to: url)
            committed = true
        } catch {
            throw InputError(file: url.path, "cannot write the file: \(error.localizedDescription)")
        }
    }

    private func flush() throws(InputError) {
        guard !buffer.isEmpty else { return }
        do { try handle.write(contentsOf: buffer) } catch {
            throw InputError(file: url.path, "cannot write the file: \(error.localizedDescription)")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit {
        if !committed {
            try? handle.close()
            try? FileManager.default.removeItem(at: temporaryURL)
        }
    }
}
