/// A test's own failure, thrown where a fixture cannot go on: not an input error of the library.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
