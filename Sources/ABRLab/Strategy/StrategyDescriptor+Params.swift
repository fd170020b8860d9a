import Synchronization

/// Sets some of a strategy's parameters from text (key → value) and returns the descriptor that
/// makes strategies with them.
public typealias StrategyConfigurator = @Sendable ([String: String]) throws(InputError) -> StrategyDescriptor

/// Parameter values by key, as a native strategy's builder receives them.
public struct StrategyParamValues: Sendable {
    public let params: [StrategyParam]

    public subscript(key: String) -> StrategyParamValue? { params.first { $0.key == key }?.value }

    public func string(_ key: String) -> String? {
        if case .string(let value) = self[key] { return value }
        return nil
    }

    public func integer(_ key: String) -> Int? {
        if case .integer(let value) = self[key] { return value }
        return nil
    }

    public func number(_ key: String) -> Double? {
        switch self[key] {
        case .number(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    public func boolean(_ key: String) -> Bool? {
        if case .boolean(let value) = self[key] { return value }
        return nil
    }

    // A builder receives every parameter its descriptor declares, typed as its default
    // (`StrategyParam.setting` keeps the type), so the default is written once, in the
    // declaration, and these read it; a key not declared with that type is a programming error.

    /// The declared number parameter `key`.
    public func declaredNumber(_ key: String) -> Double { Self.declared(key, number(key)) }

    /// The declared integer parameter `key`.
    public func declaredInteger(_ key: String) -> Int { Self.declared(key, integer(key)) }

    /// The declared boolean parameter `key`.
    public func declaredBoolean(_ key: String) -> Bool { Self.declared(key, boolean(key)) }

    /// The declared string parameter `key`.
    public func declaredString(_ key: String) -> String { Self.declared(key, string(key)) }

    private static func declared<Value>(_ key: String, _ value: Value?) -> Value {
        guard let value else { preconditionFailure("'\(key)' is not a declared parameter of this type") }
        return value
    }
}

extension StrategyDescriptor {
    /// Turns one set of parameter values into a session factory. It runs once per set of values
    /// (loading files, checking values), not once per session; a bad value is an `InputError`.
    public typealias Builder = @Sendable (StrategyParamValues) throws(InputError) -> @Sendable () throws -> any SessionStrategy

    /// A native strategy with typed parameters. `build` runs when the descriptor is configured
    /// (``configured(_:)``), or on the first session when it never is.
    public init(id: String, name: String, description: String, params: [StrategyParam], build: @escaping Builder) {
        let sorted = params.sorted { $0.key < $1.key }
        let once = BuiltFactory(build: build, values: StrategyParamValues(params: sorted))
        self.init(
            id: id, name: name, description: description, source: "native", params: sorted,
            configure: Self.nativeConfigurator(id: id, name: name, description: description, params: sorted, build: build),
            make: { try once.factory()() }
        )
    }

    /// This strategy with parameters set from text (`key → value`), each read with the type of
    /// its default. An unknown key, a value of the wrong type or one the strategy rejects is an
    /// error naming `id.key`. Works alike for native strategies and Lua scripts.
    public func configured(_ values: [String: String]) throws(InputError) -> StrategyDescriptor {
        guard let configurator else {
            guard values.isEmpty else {
                throw InputError(setting: .param, "'\(id)' takes no parameters")
            }
            return self
        }
        return try configurator(values)
    }

    private static func nativeConfigurator(
        id: String, name: String, description: String, params: [StrategyParam], build: @escaping Builder
    ) -> StrategyConfigurator {
        { values throws(InputError) in
            var effective = params
            for key in values.keys.sorted() {
                guard let index = effective.firstIndex(where: { $0.key == key }) else {
                    let known = effective.map(\.key).joined(separator: ", ")
                    throw InputError(setting: .param, "unknown parameter '\(key)' in \(id).\(key)=\(values[key] ?? ""); parameters are \(known)")
                }
                effective[index] = try effective[index].setting(values[key] ?? "", strategyID: id, subject: .settings([.param]))
            }
            let factory = try build(StrategyParamValues(params: effective))
            return StrategyDescriptor(
                id: id, name: name, description: description, source: "native", params: effective,
                configure: nativeConfigurator(id: id, name: name, description: description, params: effective, build: build),
                make: factory
            )
        }
    }
}

/// A builder's factory for the default values, built on first use and kept (with its error).
private final class BuiltFactory: Sendable {
    private let build: StrategyDescriptor.Builder
    private let values: StrategyParamValues
    private let built = Mutex<Result<@Sendable () throws -> any SessionStrategy, InputError>?>(nil)

    init(build: @escaping StrategyDescriptor.Builder, values: StrategyParamValues) {
        self.build = build
        self.values = values
    }

    func factory() throws(InputError) -> @Sendable () throws -> any SessionStrategy {
        let result = built.withLock { cached in
            if let cached { return cached }
            let result: Result<@Sendable () throws -> any SessionStrategy, InputError>
            do throws(InputError) {
                result = .success(try build(values))
            } catch {
                result = .failure(error)
            }
            cached = result
            return result
        }
        return try result.get()
    }
}
