/// What a script's top level declares.
struct LuaInspection {
    var name: String?
    var description: String?
    var form: LuaScript.Form
    /// Sorted by key.
    var params: [LuaParam]
}
