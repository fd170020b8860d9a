/// One declared parameter with its effective value.
public struct LuaParam: Hashable, Sendable {
    public let key: String
    public var value: LuaParamValue

    public init(key: String, value: LuaParamValue) {
        self.key = key
        self.value = value
    }
}
