/// A file a Lua text names literally: `require("lib.x")`, `require "lib.x"` or
/// `abrlab.model("models/m.safetensors")`, found without running the text.
enum LuaReference: Hashable, Sendable {
    /// A module name, as written.
    case module(String)
    /// A model path relative to the script's folder, as written.
    case model(String)
}
