import ABRLab
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension OutputFolder {
    /// Refuses a file system root or the home directory that holds anything: results would land
    /// among unrelated files (`--out /` or `--out ~`, a slip of the keyboard), and later runs
    /// remove and replace files there. An empty one, such as a freshly mounted disk, is accepted.
    public static func refuseUnsafeLocation(_ directory: URL) throws(InputError) {
        guard let real = realPath(directory.path) else { return }
        var folder = stat()
        var parent = stat()
        guard stat(real, &folder) == 0, folder.st_mode & S_IFMT == S_IFDIR, stat(real + "/..", &parent) == 0 else { return }
        // A mount point sits on another device than its parent; `/` is its own parent.
        let isRoot = folder.st_dev != parent.st_dev || folder.st_ino == parent.st_ino
        let homes = [ProcessInfo.processInfo.environment["HOME"], passwordHome()].compactMap { $0.flatMap(realPath) }
        guard isRoot || homes.contains(real) else { return }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: real)) ?? []
        guard !entries.isEmpty else { return }
        let what = isRoot ? "the root of a file system" : "the home directory"
        throw InputError(file: directory.path, "is \(what) and not empty; give the results a folder of their own (such as \(directory.appendingPathComponent("results").path))")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func passwordHome() -> String? {
        guard let entry = getpwuid(getuid()), let home = entry.pointee.pw_dir else { return nil }
        return String(cString: home)
    }
}
