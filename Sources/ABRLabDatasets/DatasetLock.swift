import ABRLab
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One fetch's hold on a dataset: `flock` on its lock file in the cache, waited for rather than
/// refused, so a second fetch of the same dataset waits for the first and then finds it installed.
/// The kernel drops the lock when its holder dies, so a killed fetch blocks nobody.
package final class DatasetLock {
    private let descriptor: Int32

    package init(_ file: URL) throws(InputError) {
        try LocalFile.makeFolder(file.deletingLastPathComponent())
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw InputError(file: file.path, "cannot open the lock file: \(LocalFile.errorText(errno))") }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                // A file system without locks: fetch unguarded rather than not at all; the
                // final rename still installs a verified dataset whole.
                break
            }
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
