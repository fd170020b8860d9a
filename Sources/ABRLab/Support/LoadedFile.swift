/// A file a script read besides its own text, with the size and hash of the exact bytes it used:
/// a module it required, a model it loaded, or a file a parameter names.
public struct LoadedFile: Sendable, Hashable, Codable {
    /// How the script named the file; with ``name`` it says how to read the file again.
    public enum Role: String, Sendable, Hashable, Codable {
        /// `require(name)`: `name` is the module name (`lib.helpers`).
        case module
        /// `abrlab.model(name)`: `name` is the path relative to the script's folder.
        case model
        /// A file named some other way (a native strategy's model parameter): `name` is its path.
        case file
    }

    public let role: Role
    public let name: String
    /// The file as messages name it (`Strategies/lib/helpers.lua`).
    public let path: String
    public let byteCount: Int
    public let sha256: String

    public init(role: Role, name: String, path: String, byteCount: Int, sha256: String) {
        self.role = role
        self.name = name
        self.path = path
        self.byteCount = byteCount
        self.sha256 = sha256
    }
}
