import ABRLab
import CCrypto

/// SHA-256 fed a block at a time through libcrypto, so a file of any size is hashed in the
/// memory of one block (``SHA256`` hashes a buffer whole).
public final class StreamingSHA256 {
    private let context: OpaquePointer

    public init() {
        // Only an allocation can fail here; without memory nothing else would go on either.
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            preconditionFailure("libcrypto could not start a SHA-256 digest")
        }
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        precondition(EVP_DigestUpdate(context, base, bytes.count) == 1, "libcrypto could not update a SHA-256 digest")
    }

    /// The digest as 64 lower-case hex digits; the hasher is spent.
    public func finish() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(context, &digest, &length) == 1 && length == 32, "libcrypto could not finish a SHA-256 digest")
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] }, as: UTF8.self)
    }
}
