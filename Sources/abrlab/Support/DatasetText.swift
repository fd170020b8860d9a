import ABRLabCompare
import ABRLabDatasets
import Foundation

/// How the datasets commands write sizes and statuses.
enum DatasetText {
    /// `1.2 MB`, `740 kB`, `512 B` (decimal units).
    static func size(_ bytes: Int) -> String {
        if bytes >= 1_000_000 { return String(format: "%.1f MB", Double(bytes) / 1e6) }
        if bytes >= 1_000 { return String(format: "%.0f kB", Double(bytes) / 1e3) }
        return "\(bytes) B"
    }

    /// `1 file`, `142 files`.
    static func files(_ count: Int) -> String { count == 1 ? "1 file" : "\(count) files" }

    static func status(_ status: DatasetStore.Status) -> String {
        switch status {
        case .missing: "not fetched"
        case .installed: "installed"
        case .otherVersion: "other version (fetch again)"
        }
    }
}
