import ABRLab
import ABRLabResults
import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// On SIGINT, SIGTERM or SIGHUP, removes the temporary files of unfinished output (an
/// interrupted compare leaves no half-written results and no temporary files; a run started
/// with `--resume` keeps its checkpoints in `.abrlab-partial/` for the next `--resume`), ends
/// its claims on folders (their lock files, and folders it created that are left empty), says so
/// on stderr and exits with 128 + the signal number, as a shell expects.
enum InterruptCleanup {
    private nonisolated(unsafe) static var sources: [any DispatchSourceSignal] = []
    /// Checkpoints of a run that will not be resumed, removed on an interrupt.
    nonisolated(unsafe) static var discardOnInterrupt: URL?
    private static let handling = Atomic(false)

    /// Whether a handler is removing the run's files: the run, which may now fail on a file
    /// that went, must neither say so nor exit first (``holdIfInterrupted()``).
    static var isHandling: Bool { handling.load(ordering: .sequentiallyConsistent) }

    /// Waits for the handler's exit when one runs, so the interrupt's line and status are the
    /// process's last word.
    static func holdIfInterrupted() {
        while isHandling { pause() }
    }

    /// Installs the handlers; call once, before any output is written. The handlers run on a
    /// dispatch queue, not in signal context, so they may use the file system freely.
    static func install() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global(qos: .userInitiated))
            source.setEventHandler {
                handling.store(true, ordering: .sequentiallyConsistent)
                var removed = AtomicFile.removeUnfinished()
                if let partial = discardOnInterrupt, (try? FileManager.default.removeItem(at: partial)) != nil { removed += 1 }
                FolderLock.abandonAll()
                let name = signalNumber == SIGINT ? "SIGINT" : signalNumber == SIGTERM ? "SIGTERM" : "SIGHUP"
                let files = removed == 0 ? "" : "; removed \(removed) unfinished file(s)"
                try? FileHandle.standardError.write(contentsOf: Data("abrlab: interrupted by \(name)\(files)\n".utf8))
                _exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}
