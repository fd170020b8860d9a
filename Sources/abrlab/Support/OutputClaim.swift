import ABRLab
import ABRLabResults
import Foundation

/// A command's hold on its `--out` folder for the whole run: the folder is checked (never a
/// non-empty file system root or home directory), locked against every other run (see
/// ``FolderLock``) and cleared of what killed runs left. A run that fails leaves no files of its
/// own: without `--resume` its partial results go (and any it found), and folders it created are
/// removed when empty.
enum OutputClaim {
    /// Runs `body` holding `out`. `keepsPartial`: the run resumes, so its checkpoints in
    /// `.abrlab-partial/` outlive a failure or an interrupt.
    static func holding<T>(_ out: String, keepsPartial: Bool, quiet: Bool, _ body: (FolderLock) throws -> T) throws -> T {
        let directory = URL(fileURLWithPath: out)
        try OutputFolder.refuseUnsafeLocation(directory)
        let lock = try FolderLock(claiming: directory, for: .output)
        if !quiet, let reason = lock.unenforcedReason {
            CommandFailure.warn("\(out): cannot be locked, \(reason); make sure no other run writes into it")
        }
        OutputFolder.removeLeftovers(in: directory)
        let partial = directory.appendingPathComponent(ResumableResults.partialFolderName)
        // Named before the checkpoint folder exists: an interrupt just after it appears must still
        // find it to discard.
        if !keepsPartial { InterruptCleanup.discardOnInterrupt = partial }
        do {
            let result = try body(lock)
            lock.release(removingCreatedFolders: false)
            return result
        } catch {
            // Checkpoints without a recorded plan are nothing --resume could continue.
            if !keepsPartial || ResumableResults.recordedPlan(in: partial) == nil { try? FileManager.default.removeItem(at: partial) }
            lock.release(removingCreatedFolders: true)
            throw error
        }
    }
}
