import ABRLab

/// Why an attribute list cannot be read. It has no place of its own: the playlist reader that met
/// the list turns it into an ``InputError`` naming the playlist, the line and the tag.
public struct HLSAttributeError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
