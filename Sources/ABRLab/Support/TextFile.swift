import Foundation

/// Reads and writes whole text files, reporting failures as `InputError`s that name the file.
package enum TextFile {
    /// How a file is named in messages: the path as the caller gave it.
    package static func displayName(_ url: URL) -> String {
        url.isFileURL ? url.relativePath : url.absoluteString
    }

    /// The file's text, refused past `InputFile.maximumBytes`.
    package static func read(_ url: URL) throws(InputError) -> String {
        String(decoding: try InputFile.read(url), as: UTF8.self)
    }

    package static func write(_ text: String, to url: URL) throws(InputError) {
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw InputError(file: displayName(url), "cannot write the file (\(reason(error)))")
        }
    }

    /// Whether `url` names an existing directory (`false` for files and missing paths).
    package static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    package static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    /// Non-hidden entries of a directory, sorted by name so loading order is reproducible.
    package static func contents(of directory: URL) throws(InputError) -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw InputError(file: displayName(directory), "cannot list the folder (\(reason(error)))")
        }
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }
}
