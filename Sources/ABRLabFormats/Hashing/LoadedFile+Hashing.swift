import ABRLab

extension LoadedFile {
    /// The record of `bytes` as read: their count and SHA-256.
    public init(role: Role, name: String, path: String, bytes: [UInt8]) {
        self.init(role: role, name: name, path: path, byteCount: bytes.count, sha256: SHA256.hex(bytes))
    }
}
