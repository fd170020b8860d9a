import ABRLab
import CCrypto

/// SHA-256 (FIPS 180-4) through OpenSSL's libcrypto: the hashes `run.json` records for every
/// input, the plan fingerprint, and the files scripts load (hashed as they are read, so the bytes
/// hashed are the bytes used). Each shard hashes every trace of its plan; libcrypto does it
/// with the CPU's SHA instructions where there are some, several times faster than portable code.
public enum SHA256 {
    /// The digest of `bytes` as 64 lower-case hex digits.
    public static func hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let text = bytes.withContiguousStorageIfAvailable({ hex(buffer: UnsafeRawBufferPointer($0)) }) { return text }
        return Array(bytes).withUnsafeBytes { hex(buffer: $0) }
    }

    /// libcrypto set up without its exit-time cleanup: a run that fails while traces are still
    /// being hashed on other threads exits mid-digest, and freeing libcrypto's state under
    /// them would crash the process after its error line.
    private static let initialized: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1

    private static func hex(buffer message: UnsafeRawBufferPointer) -> String {
        precondition(initialized, "libcrypto could not be initialized")
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        // An empty buffer may have no base address; libcrypto needs a pointer either way.
        let status = withUnsafeBytes(of: 0) { empty in
            EVP_Digest(message.baseAddress ?? empty.baseAddress, message.count, &digest, &length, EVP_sha256(), nil)
        }
        // EVP_Digest with SHA-256 fails only when memory runs out.
        precondition(status == 1 && length == 32, "libcrypto could not compute a SHA-256 digest")
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
