/// The framework's version, reported by `abrlab --version` and written into `run.json`.
public enum ABRLabVersion {
    public static let current = "0.2.0"
}
