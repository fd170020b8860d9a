/// What is known about the network path a session runs over, in the shape of a platform
/// path monitor's report. Traces may carry it as metadata.
public struct NetworkPath: Hashable, Sendable, Codable {
    public enum Status: String, Hashable, Sendable, Codable, CaseIterable {
        case satisfied, unsatisfied, requiresConnection
    }

    public enum InterfaceType: String, Hashable, Sendable, Codable, CaseIterable {
        case wifi, wiredEthernet, cellular, loopback, other
    }

    public var status: Status
    /// Low Data Mode or an equivalent user constraint.
    public var isConstrained: Bool
    /// A metered link, typically cellular or a personal hotspot.
    public var isExpensive: Bool
    public var interfaceTypes: Set<InterfaceType>

    public init(
        status: Status = .satisfied,
        isConstrained: Bool = false,
        isExpensive: Bool = false,
        interfaceTypes: Set<InterfaceType> = []
    ) {
        self.status = status
        self.isConstrained = isConstrained
        self.isExpensive = isExpensive
        self.interfaceTypes = interfaceTypes
    }

    public func usesInterfaceType(_ type: InterfaceType) -> Bool {
        interfaceTypes.contains(type)
    }
}

extension NetworkQuality {
    /// Classifies a path the way the seed's monitor does, checking in this order:
    /// not satisfied → offline, constrained → poor, expensive → fair,
    /// Wi-Fi or wired → excellent, cellular → good, anything else → fair.
    public init(path: NetworkPath) {
        if path.status != .satisfied {
            self = .offline
        } else if path.isConstrained {
            self = .poor
        } else if path.isExpensive {
            self = .fair
        } else if path.usesInterfaceType(.wifi) || path.usesInterfaceType(.wiredEthernet) {
            self = .excellent
        } else if path.usesInterfaceType(.cellular) {
            self = .good
        } else {
            self = .fair
        }
    }
}
