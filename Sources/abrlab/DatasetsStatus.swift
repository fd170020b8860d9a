import ABRLab
import ABRLabCompare
import ABRLabDatasets

extension DatasetStore {
    /// The status column of `datasets list` and `info`: a folder abrlab did not install is
    /// shown as such, never as "not fetched", since fetch leaves it alone.
    func statusText(of dataset: Dataset) -> String {
        foreignCopy(of: dataset) == nil ? DatasetText.status(status(of: dataset)) : "not abrlab's (no marker)"
    }

    /// The error for a dataset that is not installed: the command that fetches it, or, for a
    /// folder abrlab did not install, what to do with that first.
    func notInstalled(_ dataset: Dataset, named name: String) -> InputError {
        guard let folder = foreignCopy(of: dataset) else {
            return InputError(file: name, "dataset not fetched yet; run: abrlab datasets fetch \(dataset.id)")
        }
        return InputError(
            file: name,
            "\(folder.path) was not installed by abrlab (no \(DatasetStore.markerName) marker in it): move it out of the cache (or remove it), then run: abrlab datasets fetch \(dataset.id)"
        )
    }
}
