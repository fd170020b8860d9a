/// One module's text as the shim compiles it, with the label that names its file in messages.
///
/// Both live in memory of their own, so the pointers the shim receives stay valid for as long as
/// the script that required the module: the shim compiles from them inside a Lua call.
final class LuaModuleSource: @unchecked Sendable {
    // Sound: every property is a `let`, and the buffers are written only in `init`.
    /// `lib/helpers.lua` for `require("lib.helpers")`.
    let label: String
    /// The text, prefixed like a script's so each run gets the environment it is given.
    let source: UnsafeMutableBufferPointer<CChar>
    /// Bytes of text (the allocation holds at least one).
    let sourceCount: Int
    /// `label` NUL-terminated.
    let labelText: UnsafeMutableBufferPointer<CChar>

    init(label: String, source bytes: [UInt8]) {
        self.label = label
        source = .allocate(capacity: max(bytes.count, 1))
        for (index, byte) in bytes.enumerated() { source[index] = CChar(bitPattern: byte) }
        sourceCount = bytes.count
        let labelBytes = Array(label.utf8CString)
        labelText = .allocate(capacity: labelBytes.count)
        _ = labelText.initialize(from: labelBytes)
    }

    /// The text as the shim compiles it, prefix included.
    var text: [UInt8] {
        Array(UnsafeRawBufferPointer(start: source.baseAddress, count: sourceCount))
    }

    deinit {
        source.deallocate()
        labelText.deallocate()
    }
}
