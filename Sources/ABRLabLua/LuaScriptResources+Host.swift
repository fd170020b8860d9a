import ABRLab
import CLuaShim

extension LuaScriptResources {
    /// The callbacks the shim calls for `require`; valid while this object lives, which every
    /// session of the script ensures by holding the script.
    var host: abrl_host {
        abrl_host(
            context: Unmanaged.passUnretained(self).toOpaque(),
            read_module: { context, name, source, length, label, message, messageSize in
                guard let context, let name else { return 1 }
                let resources = Unmanaged<LuaScriptResources>.fromOpaque(context).takeUnretainedValue()
                switch resources.module(named: String(cString: name)) {
                case .success(let module):
                    source?.pointee = UnsafePointer(module.source.baseAddress)
                    length?.pointee = module.sourceCount
                    label?.pointee = UnsafePointer(module.labelText.baseAddress)
                    return 0
                case .failure(let error):
                    LuaScriptResources.write(error.message, to: message, size: messageSize)
                    return 1
                }
            },
            load_model: nil,
            forward: nil
        )
    }

    /// Copies `text` into a C buffer of `size` bytes, cut at a character boundary and NUL-terminated.
    static func write(_ text: String, to buffer: UnsafeMutablePointer<CChar>?, size: Int) {
        guard let buffer, size > 0 else { return }
        var count = 0
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            guard count + bytes.count < size else { break }
            for byte in bytes {
                buffer[count] = CChar(bitPattern: byte)
                count += 1
            }
        }
        buffer[count] = 0
    }
}
