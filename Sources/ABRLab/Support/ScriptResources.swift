/// The files a script's code reads besides its text (modules, models), each read once and kept,
/// so every session of a run uses the same bytes and a run can say which bytes those were.
public protocol ScriptResources: AnyObject, Sendable {
    /// Files known before any session runs: named literally in the script or its modules, or
    /// read while the script loaded. A plan's fingerprint covers them. Sorted by path.
    var plannedFiles: [LoadedFile] { get }
    /// Every file read so far, sorted by path: the planned ones and any a session loaded by a
    /// name only running code knows.
    var loadedFiles: [LoadedFile] { get }
    /// Reads `file` by its role and name as a session would (or finds it read already), so a
    /// resumed run can check that what an earlier part of the run loaded is unchanged.
    func load(_ file: LoadedFile) -> Result<LoadedFile, InputError>
}
