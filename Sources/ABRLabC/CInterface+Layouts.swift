import ABRLab
import Foundation

/// What the layouts call returns: the names Python finds its way by, never positions.
struct EnvLayouts: Encodable {
    /// ``EnvCall/Field``'s names, in the order of the call's words.
    let call: [String]
    /// ``EnvCall/AutoresetMode``'s names, in the order of their values.
    let autoresetModes: [String]

    init(_ env: Environment) {
        call = EnvCall.Field.allCases.map(\.name)
        autoresetModes = EnvCall.AutoresetMode.allCases.map(\.name)
    }

    enum CodingKeys: String, CodingKey {
        case call
        case autoresetModes = "autoreset_modes"
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Names and finite numbers only: encoding cannot fail.
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// The environment's layouts as JSON (``EnvLayouts``). Returns the bytes the text needs with its
/// NUL, so a caller whose buffer was short can retry.
@_cdecl("abrlab_env_layouts")
public func abrlabEnvLayouts(_ pointer: UnsafeMutableRawPointer, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int {
    guard let env = environment(pointer) else {
        write("", buffer, capacity)
        return 1
    }
    let text = EnvLayouts(env).json
    write(text, buffer, capacity)
    return text.utf8.count + 1
}
